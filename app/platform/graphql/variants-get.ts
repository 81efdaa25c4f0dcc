// nodes(ids) on ProductVariant: the few fields swap options and box menus show.
import type { PlatformVariant } from "../port";

export const VARIANTS_GET = /* GraphQL */ `
  query VariantsGet($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      ... on ProductVariant {
        id
        title
        price
        availableForSale
        image { url }
        product { id title featuredImage { url } }
      }
    }
  }
`;

interface GqlVariant {
  __typename: "ProductVariant";
  id: string;
  title: string;
  price: string;
  availableForSale: boolean;
  image: { url: string } | null;
  product: { id: string; title: string; featuredImage: { url: string } | null };
}

export interface VariantsGetResult {
  nodes: (GqlVariant | { __typename: string } | null)[];
}

const isVariant = (n: VariantsGetResult["nodes"][number]): n is GqlVariant => n?.__typename === "ProductVariant";

export const mapVariantsGet = (r: VariantsGetResult): PlatformVariant[] =>
  r.nodes.filter(isVariant).map((v) => ({
    id: v.id,
    productId: v.product.id,
    title: v.title,
    productTitle: v.product.title,
    price: String(v.price),
    imageUrl: v.image?.url ?? v.product.featuredImage?.url ?? null,
    available: v.availableForSale,
  }));
