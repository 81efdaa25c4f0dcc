// flowTriggerReceive: starts the shop's workflows that begin with the app's Flow trigger `handle`
// (docs/decisions/128-flow-triggers.md). Flow checks the payload against the trigger's declared
// fields and answers a mismatch (or an unknown handle) with userErrors { field message }.
import { assertNoUserErrors } from "../errors";

export const FLOW_TRIGGER_RECEIVE = /* GraphQL */ `
  mutation FlowTriggerReceive($handle: String!, $payload: JSON!) {
    flowTriggerReceive(handle: $handle, payload: $payload) {
      userErrors {
        field
        message
      }
    }
  }
`;

export interface FlowTriggerReceiveResult {
  flowTriggerReceive: { userErrors: { field: string[] | null; message: string }[] } | null;
}

export function mapFlowTriggerReceive(r: FlowTriggerReceiveResult): void {
  assertNoUserErrors(r.flowTriggerReceive?.userErrors);
}
