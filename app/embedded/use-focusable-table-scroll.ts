// Polaris' IndexTable and DataTable scroll sideways at phone widths in a container keyboard users
// cannot reach; making it a focusable, named region lets them scroll it (axe:
// scrollable-region-focusable). Put the returned ref on an element around one table; `deps` are
// what re-renders its rows.
import { useEffect, useRef, type DependencyList } from "react";

export function useFocusableTableScroll(label: string, deps: DependencyList) {
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = wrap.current?.querySelector<HTMLElement>(".Polaris-IndexTable-ScrollContainer, .Polaris-DataTable__ScrollContainer");
    if (!scroller) return;
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "region");
    scroller.setAttribute("aria-label", label);
  }, [label, ...deps]);
  return wrap;
}
