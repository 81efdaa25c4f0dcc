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
        media(first: 1) {
          nodes {
            preview {
              image {
                url
              }
            }
          }
        }
        product {
          id
          title
          featuredMedia {
            preview {
              image {
                url
              }
            }
          }
        }
      }
    }
  }
`;

/** A product or variant image: `media`, not the deprecated `image` / `featuredImage`. */
interface GqlMedia {
  preview: { image: { url: string } | null } | null;
}

interface GqlVariant {
  __typename: "ProductVariant";
  id: string;
  title: string;
  price: string;
  availableForSale: boolean;
  media: { nodes: GqlMedia[] };
  product: { id: string; title: string; featuredMedia: GqlMedia | null };
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
    imageUrl: v.media.nodes[0]?.preview?.image?.url ?? v.product.featuredMedia?.preview?.image?.url ?? null,
    available: v.availableForSale,
  }));
