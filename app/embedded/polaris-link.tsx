// Polaris renders its links (Button url, Link url) through this component, so in-app URLs
// navigate with Remix on the client (the session token rides on the data request) instead of
// reloading the frame. External URLs stay plain anchors opening a new tab.
import type { LinkLikeComponentProps } from "@shopify/polaris/build/ts/src/utilities/link";
import { Link } from "@remix-run/react";

export function PolarisLink({ url, external, children, ...rest }: LinkLikeComponentProps) {
  if (external || /^https?:\/\//.test(url)) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" {...(rest as object)}>
        {children}
      </a>
    );
  }
  return (
    <Link to={url} {...(rest as object)}>
      {children}
    </Link>
  );
}
