// ShopifyPort on Shopify's Admin GraphQL API. Knows nothing of the simulator: in simulator mode
// routing.server.ts redirects the same requests there.
import { CUSTOMERS_SEARCH, CUSTOMERS_SEARCH_MAX, mapCustomersSearch, type CustomersSearchResult } from "./customers-search";
import { PlatformError } from "../errors";
import type { LineChange, PlatformLine, PlatformShop, ShopifyPort } from "../port";
import { adminGraphql, type ClientOptions } from "./client.server";
import { CONTRACT_GET, mapContractGet, type ContractGetResult } from "./contract-get";
import { CONTRACTS_LIST, CONTRACTS_LIST_MAX, mapContractsList, type ContractsListResult } from "./contracts-list";
import { mapStatusChange } from "./contract-fields";
import { CONTRACT_PAUSE, type ContractPauseResult } from "./contract-pause";
import { CONTRACT_ACTIVATE, type ContractActivateResult } from "./contract-activate";
import { CONTRACT_CANCEL, type ContractCancelResult } from "./contract-cancel";
import { BILLING_CYCLE_SKIP, billingCycleSkipVariables, mapBillingCycleSkip, type BillingCycleSkipResult } from "./billing-cycle-skip";
import { CONTRACT_SET_NEXT_BILLING_DATE, mapContractSetNextBillingDate, type ContractSetNextBillingDateResult } from "./contract-set-next-billing-date";
import {
  CONTRACT_UPDATE,
  CONTRACT_UPDATE_WITH_LINES,
  mapContractUpdate,
  mapContractUpdateWithLines,
  type ContractUpdateResult,
  type ContractUpdateWithLinesResult,
} from "./contract-update";
import { DRAFT_LINE_UPDATE, draftLineUpdateVariables, mapDraftLineUpdate, type DraftLineUpdateResult } from "./draft-line-update";
import { DRAFT_UPDATE, draftShippingVariables, mapDraftUpdate, type DraftUpdateResult } from "./draft-update";
import { DRAFT_COMMIT, mapDraftCommit, type DraftCommitResult } from "./draft-commit";
import { PAYMENT_METHOD_GET, mapPaymentMethodGet, type PaymentMethodGetResult } from "./payment-method-get";
import { PAYMENT_METHOD_SEND_UPDATE_EMAIL, mapPaymentMethodSendUpdateEmail, type PaymentMethodSendUpdateEmailResult } from "./payment-method-send-update-email";
import { SELLING_PLAN_GROUP_GET, mapSellingPlanGroupGet, type SellingPlanGroupGetResult } from "./selling-plan-group-get";
import { mapSellingPlanGroupApplies, SELLING_PLAN_GROUP_APPLIES, type SellingPlanGroupAppliesResult } from "./selling-plan-group-applies";
import { METAFIELDS_SET, METAFIELDS_SET_MAX, mapMetafieldsSet, type MetafieldsSetResult } from "./metafields-set";
import { FLOW_TRIGGER_RECEIVE, mapFlowTriggerReceive, type FlowTriggerReceiveResult } from "./flow-trigger-receive";
import {
  METAFIELD_DEFINITION_CREATE,
  METAFIELD_DEFINITION_UPDATE,
  mapMetafieldDefinitionCreate,
  mapMetafieldDefinitionUpdate,
  type MetafieldDefinitionCreateResult,
  type MetafieldDefinitionUpdateResult,
} from "./metafield-definition-create";
import { PRODUCT_SELLING_PLAN_GROUPS, mapProductSellingPlanGroups, type ProductSellingPlanGroupsResult } from "./product-selling-plan-groups";
import { VARIANTS_GET, mapVariantsGet, type VariantsGetResult } from "./variants-get";
import { CUSTOMERS_GET, mapCustomersGet, type CustomersGetResult } from "./customers-get";
import { SHOP_GET, mapShopGet, type ShopGetResult } from "./shop-get";
import { fetchCustomerId } from "./customer-id";
import {
  CUSTOMERS_BY_EMAIL_MAX,
  customersByEmailDocument,
  customersByEmailVariables,
  mapCustomersByEmail,
  type CustomersByEmailResult,
} from "./customer-by-email";
import { CUSTOMER_SET_MAX, customerSetDocument, customerSetVariables, mapCustomerSet, type CustomerCreated, type CustomerSetResult } from "./customer-set";
import { PAYMENT_METHOD_OWNER, mapPaymentMethodOwner, type PaymentMethodOwnerResult } from "./payment-method-owner";
import {
  PAYMENT_METHOD_REMOTE_CREATE,
  mapPaymentMethodRemoteCreate,
  remoteReferenceInput,
  type PaymentMethodRemoteCreateResult,
} from "./payment-method-remote-create";
import { CONTRACT_ATOMIC_CREATE, contractAtomicCreateVariables, mapContractAtomicCreate, type ContractAtomicCreateResult } from "./contract-atomic-create";
import { CUSTOMERS_CONSENT, CUSTOMERS_CONSENT_MAX, mapCustomersConsent, type CustomersConsentResult } from "./customers-consent";
import {
  DISCOUNT_CODE_BASIC_CREATE,
  discountCodeBasicCreateVariables,
  mapDiscountCodeBasicCreate,
  type DiscountCodeBasicCreateResult,
} from "./discount-code-create";
import { CONTRACT_DELIVERY_ADDRESS, mapContractDeliveryAddress, type ContractDeliveryAddressResult } from "./contract-delivery-address";
import { CONTRACT_CLONE_SOURCE, mapContractCloneSource, type ContractCloneSourceResult } from "./contract-clone-source";
import { CUSTOMER_CONTRACTS, mapCustomerContracts, type CustomerContractsResult } from "./customer-contracts";
import { APP_SUBSCRIPTION_CREATE, appSubscriptionCreateVariables, mapAppSubscriptionCreate, type AppSubscriptionCreateResult } from "./app-subscription-create";
import { APP_SUBSCRIPTION_CANCEL, mapAppSubscriptionCancel, type AppSubscriptionCancelResult } from "./app-subscription-cancel";
import { BILLING_ATTEMPT_CREATE, billingAttemptCreateVariables, mapBillingAttemptCreate, type BillingAttemptCreateResult } from "./billing-attempt-create";
import { BILLING_ATTEMPT_GET, mapBillingAttemptGet, type BillingAttemptGetResult } from "./billing-attempt-get";
import { SELLING_PLAN_GROUP_CREATE, mapSellingPlanGroupCreate, sellingPlanGroupInput, type SellingPlanGroupCreateResult } from "./selling-plan-group-create";
import { SELLING_PLAN_GROUP_UPDATE, mapSellingPlanGroupUpdate, type SellingPlanGroupUpdateResult } from "./selling-plan-group-update";
import { SELLING_PLAN_GROUP_DELETE, mapSellingPlanGroupDelete, type SellingPlanGroupDeleteResult } from "./selling-plan-group-delete";
import { SELLING_PLAN_GROUP_ADD_PRODUCTS, mapSellingPlanGroupAddProducts, type SellingPlanGroupAddProductsResult } from "./selling-plan-group-add-products";
import {
  SELLING_PLAN_GROUP_REMOVE_PRODUCTS,
  mapSellingPlanGroupRemoveProducts,
  type SellingPlanGroupRemoveProductsResult,
} from "./selling-plan-group-remove-products";
import {
  SELLING_PLAN_GROUP_ADD_VARIANTS,
  mapSellingPlanGroupAddProductVariants,
  type SellingPlanGroupAddProductVariantsResult,
} from "./selling-plan-group-add-variants";
import {
  SELLING_PLAN_GROUP_REMOVE_VARIANTS,
  mapSellingPlanGroupRemoveProductVariants,
  type SellingPlanGroupRemoveProductVariantsResult,
} from "./selling-plan-group-remove-variants";
import {
  BULK_OPERATION_GET,
  BULK_OPERATION_RUN_QUERY,
  CURRENT_BULK_OPERATION,
  mapBulkOperationGet,
  mapBulkOperationRunQuery,
  mapCurrentBulkOperation,
  type BulkOperationGetResult,
  type BulkOperationRunQueryResult,
  type CurrentBulkOperationResult,
} from "./bulk-operations";
import { CURRENT_APP_INSTALLATION, mapCurrentAppInstallation, type CurrentAppInstallationResult } from "./current-app-installation";

// Shopify caps `nodes(ids:)` at 250 ids per call.
const NODES_MAX = 250;
// A customer with its address costs about 4 points; 100 stay well under the 1,000-point query cap.
const CUSTOMERS_MAX = 100;

export function createGraphqlAdapter(shop: string, accessToken: string, options: ClientOptions = {}): ShopifyPort {
  const gql = <T>(operation: string, variables: Record<string, unknown> = {}) => adminGraphql<T>(shop, accessToken, operation, variables, options);
  let shopInfo: Promise<PlatformShop> | undefined;

  /** Line update then commit on an open draft; the committed contract's line is the answer. */
  const editDraftLine = async (contractId: string, draftId: string, lineId: string, change: LineChange): Promise<PlatformLine> => {
    mapDraftLineUpdate(await gql<DraftLineUpdateResult>(DRAFT_LINE_UPDATE, draftLineUpdateVariables(draftId, lineId, change)));
    const contract = mapDraftCommit(await gql<DraftCommitResult>(DRAFT_COMMIT, { draftId }));
    // Re-read the line from the committed contract: that is the truth, not the draft's echo.
    // A variant swap may give the line a new id, so fall back to the only changed candidate.
    const line = contract.lines.find((l) => l.id === lineId) ?? (change.variantId ? contract.lines.find((l) => l.variantId === change.variantId) : undefined);
    if (!line) throw new PlatformError("unavailable", `Line ${lineId} is missing from the committed contract ${contractId}`);
    return line;
  };

  const port: ShopifyPort = {
    shop,

    getShop() {
      // The shop's identity does not change while this port lives; one request is enough.
      shopInfo ??= gql<ShopGetResult>(SHOP_GET).then(mapShopGet);
      shopInfo.catch(() => (shopInfo = undefined));
      return shopInfo;
    },

    async getContract(id) {
      return mapContractGet(await gql<ContractGetResult>(CONTRACT_GET, { id }));
    },

    async listContracts({ first, after }) {
      return mapContractsList(await gql<ContractsListResult>(CONTRACTS_LIST, { first: Math.min(first, CONTRACTS_LIST_MAX), after: after ?? null }));
    },

    async pauseContract(id) {
      return mapStatusChange(
        "subscriptionContractPause",
        (await gql<ContractPauseResult>(CONTRACT_PAUSE, { subscriptionContractId: id })).subscriptionContractPause,
      );
    },

    async activateContract(id) {
      return mapStatusChange(
        "subscriptionContractActivate",
        (await gql<ContractActivateResult>(CONTRACT_ACTIVATE, { subscriptionContractId: id })).subscriptionContractActivate,
      );
    },

    async cancelContract(id) {
      return mapStatusChange(
        "subscriptionContractCancel",
        (await gql<ContractCancelResult>(CONTRACT_CANCEL, { subscriptionContractId: id })).subscriptionContractCancel,
      );
    },

    async skipBillingCycle(id, selector) {
      if ((selector.index === undefined) === (selector.date === undefined)) {
        throw new PlatformError("invalid_request", "Give exactly one of index or date to skip a billing cycle", { field: ["selector"] });
      }
      return mapBillingCycleSkip(await gql<BillingCycleSkipResult>(BILLING_CYCLE_SKIP, billingCycleSkipVariables(id, selector)));
    },

    async setNextBillingDate(id, date) {
      return mapContractSetNextBillingDate(await gql<ContractSetNextBillingDateResult>(CONTRACT_SET_NEXT_BILLING_DATE, { contractId: id, date }));
    },

    async updateLine(contractId, lineId, change) {
      // Draft → edit → commit. A refused edit leaves the draft uncommitted: Shopify discards
      // abandoned drafts, so the contract itself never sees a partial change.
      const draftId = mapContractUpdate(await gql<ContractUpdateResult>(CONTRACT_UPDATE, { contractId }));
      return editDraftLine(contractId, draftId, lineId, change);
    },

    async updateLineOfDraft(contractId, choose) {
      const { draftId, lines } = mapContractUpdateWithLines(await gql<ContractUpdateWithLinesResult>(CONTRACT_UPDATE_WITH_LINES, { contractId }));
      const { lineId, change } = choose(lines);
      return editDraftLine(contractId, draftId, lineId, change);
    },

    async setShippingAddress(contractId, address) {
      // Draft → delivery method → commit, as updateLine: a refusal leaves the contract unchanged.
      const draftId = mapContractUpdate(await gql<ContractUpdateResult>(CONTRACT_UPDATE, { contractId }));
      mapDraftUpdate(await gql<DraftUpdateResult>(DRAFT_UPDATE, draftShippingVariables(draftId, address)));
      return mapDraftCommit(await gql<DraftCommitResult>(DRAFT_COMMIT, { draftId }));
    },

    async getDeliveryAddress(id) {
      return mapContractDeliveryAddress(await gql<ContractDeliveryAddressResult>(CONTRACT_DELIVERY_ADDRESS, { id }));
    },

    async getPaymentMethod(contractId) {
      return mapPaymentMethodGet(await gql<PaymentMethodGetResult>(PAYMENT_METHOD_GET, { id: contractId }));
    },

    async sendPaymentMethodUpdateEmail(customerPaymentMethodId) {
      mapPaymentMethodSendUpdateEmail(await gql<PaymentMethodSendUpdateEmailResult>(PAYMENT_METHOD_SEND_UPDATE_EMAIL, { customerPaymentMethodId }));
    },

    async customerIdForAccessToken(token) {
      if (!token) return null;
      const { id } = await port.getShop();
      const numericId = id.split("/").pop() ?? "";
      return fetchCustomerId(numericId, token);
    },

    async resolveSellingPlans(id) {
      return mapSellingPlanGroupGet(await gql<SellingPlanGroupGetResult>(SELLING_PLAN_GROUP_GET, { id }));
    },

    async productSellingPlanGroups(id) {
      return mapProductSellingPlanGroups(await gql<ProductSellingPlanGroupsResult>(PRODUCT_SELLING_PLAN_GROUPS, { id }));
    },

    async sellingPlanGroupAppliesToVariant(groupId, productVariantId) {
      return mapSellingPlanGroupApplies(await gql<SellingPlanGroupAppliesResult>(SELLING_PLAN_GROUP_APPLIES, { id: groupId, productVariantId }));
    },

    async createSellingPlanGroup(group, resources) {
      const r = await gql<SellingPlanGroupCreateResult>(SELLING_PLAN_GROUP_CREATE, {
        input: sellingPlanGroupInput(group),
        resources: { productIds: resources.productIds, productVariantIds: resources.variantIds },
      });
      return mapSellingPlanGroupCreate(r);
    },

    async updateSellingPlanGroup(id, group) {
      return mapSellingPlanGroupUpdate(await gql<SellingPlanGroupUpdateResult>(SELLING_PLAN_GROUP_UPDATE, { id, input: sellingPlanGroupInput(group) }));
    },

    async deleteSellingPlanGroup(id) {
      return mapSellingPlanGroupDelete(await gql<SellingPlanGroupDeleteResult>(SELLING_PLAN_GROUP_DELETE, { id }));
    },

    async changeSellingPlanGroupResources(id, change, ids) {
      const vars = { id, ids };
      switch (change) {
        case "addProducts":
          return mapSellingPlanGroupAddProducts(await gql<SellingPlanGroupAddProductsResult>(SELLING_PLAN_GROUP_ADD_PRODUCTS, vars), ids);
        case "removeProducts":
          return mapSellingPlanGroupRemoveProducts(await gql<SellingPlanGroupRemoveProductsResult>(SELLING_PLAN_GROUP_REMOVE_PRODUCTS, vars));
        case "addVariants":
          return mapSellingPlanGroupAddProductVariants(await gql<SellingPlanGroupAddProductVariantsResult>(SELLING_PLAN_GROUP_ADD_VARIANTS, vars), ids);
        case "removeVariants":
          return mapSellingPlanGroupRemoveProductVariants(await gql<SellingPlanGroupRemoveProductVariantsResult>(SELLING_PLAN_GROUP_REMOVE_VARIANTS, vars));
      }
    },

    async setMetafields(metafields) {
      for (let i = 0; i < metafields.length; i += METAFIELDS_SET_MAX) {
        mapMetafieldsSet(await gql<MetafieldsSetResult>(METAFIELDS_SET, { metafields: metafields.slice(i, i + METAFIELDS_SET_MAX) }));
      }
    },

    async flowTriggerReceive(handle, payload) {
      mapFlowTriggerReceive(await gql<FlowTriggerReceiveResult>(FLOW_TRIGGER_RECEIVE, { handle, payload }));
    },

    async ensureMetafieldDefinition(d) {
      const { access, ...identity } = d;
      const created = mapMetafieldDefinitionCreate(await gql<MetafieldDefinitionCreateResult>(METAFIELD_DEFINITION_CREATE, { definition: d }));
      if (created) return { namespace: created.namespace, created: true };
      // It exists (a reinstall, an older version of the app): its access is set to what is asked.
      const { namespace, key, ownerType } = identity;
      const updated = mapMetafieldDefinitionUpdate(
        await gql<MetafieldDefinitionUpdateResult>(METAFIELD_DEFINITION_UPDATE, { definition: { namespace, key, ownerType, access } }),
      );
      return { namespace: updated?.namespace ?? namespace, created: false };
    },

    async getVariants(ids) {
      const out = [];
      for (let i = 0; i < ids.length; i += NODES_MAX) {
        out.push(...mapVariantsGet(await gql<VariantsGetResult>(VARIANTS_GET, { ids: ids.slice(i, i + NODES_MAX) })));
      }
      return out;
    },

    async getCustomers(ids) {
      const out = [];
      for (let i = 0; i < ids.length; i += CUSTOMERS_MAX) {
        out.push(...mapCustomersGet(await gql<CustomersGetResult>(CUSTOMERS_GET, { ids: ids.slice(i, i + CUSTOMERS_MAX) })));
      }
      return out;
    },

    async searchCustomers(query, first) {
      return mapCustomersSearch(await gql<CustomersSearchResult>(CUSTOMERS_SEARCH, { query, first: Math.min(first, CUSTOMERS_SEARCH_MAX) }));
    },

    async findCustomersByEmail(emails) {
      const found = new Map<string, string>();
      const unique = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
      for (let i = 0; i < unique.length; i += CUSTOMERS_BY_EMAIL_MAX) {
        const batch = unique.slice(i, i + CUSTOMERS_BY_EMAIL_MAX);
        const ids = mapCustomersByEmail(await gql<CustomersByEmailResult>(customersByEmailDocument(batch.length), customersByEmailVariables(batch)), batch);
        batch.forEach((email, j) => ids[j] && found.set(email, ids[j]));
      }
      return found;
    },

    async createCustomers(customers) {
      const out: CustomerCreated[] = [];
      for (let i = 0; i < customers.length; i += CUSTOMER_SET_MAX) {
        const batch = customers.slice(i, i + CUSTOMER_SET_MAX);
        out.push(...mapCustomerSet(await gql<CustomerSetResult>(customerSetDocument(batch.length), customerSetVariables(batch)), batch.length));
      }
      return out;
    },

    async getPaymentMethodOwner(id) {
      return mapPaymentMethodOwner(await gql<PaymentMethodOwnerResult>(PAYMENT_METHOD_OWNER, { id }));
    },

    async createRemotePaymentMethod(customerId, reference) {
      return mapPaymentMethodRemoteCreate(
        await gql<PaymentMethodRemoteCreateResult>(PAYMENT_METHOD_REMOTE_CREATE, { customerId, remoteReference: remoteReferenceInput(reference) }),
      );
    },

    async getMarketingConsent(ids) {
      const out = [];
      for (let i = 0; i < ids.length; i += CUSTOMERS_CONSENT_MAX) {
        out.push(...mapCustomersConsent(await gql<CustomersConsentResult>(CUSTOMERS_CONSENT, { ids: ids.slice(i, i + CUSTOMERS_CONSENT_MAX) })));
      }
      return out;
    },

    async createCodeDiscount(discount) {
      return mapDiscountCodeBasicCreate(await gql<DiscountCodeBasicCreateResult>(DISCOUNT_CODE_BASIC_CREATE, discountCodeBasicCreateVariables(discount)));
    },

    async getCloneSource(id) {
      return mapContractCloneSource(await gql<ContractCloneSourceResult>(CONTRACT_CLONE_SOURCE, { id }));
    },

    async createContract(contract) {
      return mapContractAtomicCreate(await gql<ContractAtomicCreateResult>(CONTRACT_ATOMIC_CREATE, contractAtomicCreateVariables(contract)));
    },

    async customerContracts(id) {
      const out: { id: string; attributes: Record<string, string> }[] = [];
      let after: string | null = null;
      do {
        const page = mapCustomerContracts(await gql<CustomerContractsResult>(CUSTOMER_CONTRACTS, { id, after }));
        out.push(...page.contracts);
        after = page.endCursor;
      } while (after);
      return out;
    },

    async createAppCharge(request) {
      return mapAppSubscriptionCreate(await gql<AppSubscriptionCreateResult>(APP_SUBSCRIPTION_CREATE, appSubscriptionCreateVariables(request)));
    },

    async activeAppCharges() {
      return mapCurrentAppInstallation(await gql<CurrentAppInstallationResult>(CURRENT_APP_INSTALLATION));
    },

    async createBillingAttempt(contractId, request) {
      return mapBillingAttemptCreate(await gql<BillingAttemptCreateResult>(BILLING_ATTEMPT_CREATE, billingAttemptCreateVariables(contractId, request)));
    },

    async getBillingAttempt(id) {
      return mapBillingAttemptGet(await gql<BillingAttemptGetResult>(BILLING_ATTEMPT_GET, { id }));
    },

    async cancelAppCharge(id) {
      mapAppSubscriptionCancel(await gql<AppSubscriptionCancelResult>(APP_SUBSCRIPTION_CANCEL, { id }));
    },

    async runBulkQuery(query) {
      return mapBulkOperationRunQuery(await gql<BulkOperationRunQueryResult>(BULK_OPERATION_RUN_QUERY, { query }));
    },

    async getBulkOperation(id) {
      return mapBulkOperationGet(await gql<BulkOperationGetResult>(BULK_OPERATION_GET, { id }));
    },

    async currentBulkOperation() {
      return mapCurrentBulkOperation(await gql<CurrentBulkOperationResult>(CURRENT_BULK_OPERATION));
    },
  };
  return port;
}
