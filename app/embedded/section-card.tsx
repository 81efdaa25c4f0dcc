// A titled section of an admin page: a Polaris Card holding its h2 heading and, below it, the
// section's content, `gap` apart. Every page section is built with it, so headings keep one
// level and one style across the app.
import type { ReactNode } from "react";
import { BlockStack, Card, Text, type BlockStackProps } from "@shopify/polaris";

export function SectionCard({ title, gap = "300", children }: { title: ReactNode; gap?: BlockStackProps["gap"]; children: ReactNode }) {
  return (
    <Card>
      <BlockStack gap={gap}>
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {children}
      </BlockStack>
    </Card>
  );
}
