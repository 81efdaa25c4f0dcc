// Plans: the shop's selling plan groups with create, edit and delete (docs/decisions/111-selling-plan-writes.md).
// Deleting a group with active subscribers is refused with the reason (Shopify would keep their
// contracts; the merchant moves them first).
import { useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, EmptyState, IndexTable, Layout, Page, Text } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { ConfirmModal } from "../embedded/confirm-modal";
import { deletePlanGroup, listPlanGroups } from "../domain/catalog/plan-builder.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  return json({ groups: await listPlanGroups(shop.id) });
};

type ActionResult = { ok: true; deleted: string } | { ok: false; error: string };

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const form = await request.formData();
    const groupGid = String(form.get("groupGid") ?? "");
    if (form.get("intent") !== "delete" || !groupGid) return json<ActionResult>({ ok: false, error: "Unknown action." }, 400);
    const r = await deletePlanGroup({ shopId: shop.id, shopDomain: shop.domain }, groupGid);
    return r.ok ? json<ActionResult>({ ok: true, deleted: groupGid }) : json<ActionResult>({ ok: false, error: r.message });
  });

const numericId = (gid: string) => gid.split("/").pop();

export default function Plans() {
  const { groups } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const [confirm, setConfirm] = useState<{ gid: string; name: string } | null>(null);
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const remove = () => {
    if (!confirm) return;
    fetcher.submit({ intent: "delete", groupGid: confirm.gid }, { method: "post" });
    setConfirm(null);
  };
  return (
    <Page
      title="Plans"
      subtitle="Subscription offers on your products, as Shopify sells them."
      primaryAction={{ content: "Create plan", url: "/app/plans/new" }}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {error && (
              <Banner tone="critical" title="The plan was not deleted">
                <p>{error}</p>
              </Banner>
            )}
            <Card padding="0">
              {groups.length === 0 ? (
                <EmptyState heading="Create your first subscription plan" action={{ content: "Create plan", url: "/app/plans/new" }} image="">
                  <p>Pick products, a cadence and a discount; shoppers see the plan on the product page.</p>
                </EmptyState>
              ) : (
                <IndexTable
                  resourceName={{ singular: "plan", plural: "plans" }}
                  itemCount={groups.length}
                  selectable={false}
                  headings={[{ title: "Name" }, { title: "Schedule" }, { title: "Options" }, { title: "Products" }, { title: "Actions" }]}
                >
                  {groups.map((g, i) => (
                    <IndexTable.Row id={g.groupGid} key={g.groupGid} position={i}>
                      <IndexTable.Cell>
                        <BlockStack gap="100">
                          <Button variant="plain" url={`/app/plans/${numericId(g.groupGid)}`}>
                            {g.name}
                          </Button>
                          {g.merchantCode && (
                            <Text as="span" tone="subdued" variant="bodySm">
                              {g.merchantCode}
                            </Text>
                          )}
                        </BlockStack>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{g.schedule}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Badge>{`${g.plans} option${g.plans === 1 ? "" : "s"}`}</Badge>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{g.products}</IndexTable.Cell>
                      <IndexTable.Cell>
                        <Button
                          tone="critical"
                          variant="plain"
                          onClick={() => setConfirm({ gid: g.groupGid, name: g.name })}
                          accessibilityLabel={`Delete ${g.name}`}
                        >
                          Delete
                        </Button>
                      </IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
      <ConfirmModal open={!!confirm} title="Delete this plan?" confirmLabel="Delete plan" onConfirm={remove} onClose={() => setConfirm(null)}>
        {`“${confirm?.name ?? ""}” is removed from Shopify and from your product pages. Plans with active subscribers cannot be deleted.`}
      </ConfirmModal>
    </Page>
  );
}
