// Charts for the admin's Analytics page: nivo (@nivo/bar, @nivo/line), which renders SVG on the
// server as well as in the browser (docs/decisions/063-analytics-charts.md). nivo's responsive
// wrappers measure in the browser only and render nothing on the server, so these take a width:
// the server renders at a default width, then the browser re-renders at the container's width.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Bar } from "@nivo/bar";
import { Line } from "@nivo/line";

const DEFAULT_WIDTH = 560;
// Polaris' palette (chart colours that keep contrast on a white card).
const COLORS = ["#2c6ecb", "#b98900", "#008060", "#8051ff", "#d72c0d", "#47c1bf"];
/** Named ticks too close to read side by side are slanted (twelve months on a phone). */
const slant = (width: number, ticks: number) => (width / Math.max(ticks, 1) < 48 ? -45 : 0);

const THEME = { text: { fontSize: 12, fill: "#303030" }, axis: { ticks: { text: { fontSize: 11, fill: "#4a4a4a" } } } };

function Measured({ height, label, children }: { height: number; label: string; children: (width: number) => ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setWidth(Math.max(240, Math.floor(el.getBoundingClientRect().width)));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} role="figure" aria-label={label} style={{ width: "100%", height, overflow: "hidden" }}>
      {children(width)}
    </div>
  );
}

/** The series' names in HTML under the chart: it wraps on a phone, where nivo's SVG legend is cut off. */
function Legend({ names }: { names: string[] }) {
  if (names.length < 2) return null;
  return (
    <ul aria-hidden="true" style={{ display: "flex", flexWrap: "wrap", gap: "4px 16px", listStyle: "none", margin: "4px 0 0", padding: 0, fontSize: 12 }}>
      {names.map((n, i) => (
        <li key={n} style={{ display: "flex", alignItems: "center", gap: 6 }}>
          <span style={{ width: 10, height: 10, borderRadius: 2, background: COLORS[i % COLORS.length], display: "inline-block" }} />
          {n}
        </li>
      ))}
    </ul>
  );
}

export interface BarDatum {
  label: string;
  [series: string]: string | number;
}

export function BarChart({
  data,
  keys,
  label,
  height = 260,
  format,
}: {
  data: BarDatum[];
  keys: string[];
  label: string;
  height?: number;
  format?: (v: number) => string;
}) {
  return (
    <>
      <Measured height={height} label={label}>
        {(width) => (
          <Bar
            width={width}
            height={height}
            data={data}
            keys={keys}
            indexBy="label"
            groupMode="grouped"
            margin={{ top: 16, right: 12, bottom: slant(width, data.length) ? 52 : 32, left: 64 }}
            padding={0.3}
            colors={COLORS}
            theme={THEME}
            animate={false}
            enableLabel={false}
            axisLeft={{ format: format as never }}
            valueFormat={format as never}
            role="img"
            ariaLabel={label}
          />
        )}
      </Measured>
      <Legend names={keys} />
    </>
  );
}

export interface LineSeries {
  id: string;
  data: Array<{ x: number | string; y: number | null }>;
}

export function LineChart({
  series,
  label,
  height = 280,
  xLegend,
  xScale = "linear",
  format,
}: {
  series: LineSeries[];
  label: string;
  height?: number;
  xLegend?: string;
  /** "point" for named steps (months), "linear" for numbers. */
  xScale?: "linear" | "point";
  format?: (v: number) => string;
}) {
  const ticks = series[0]?.data.length ?? 0;
  // nivo draws a series with no value at all as a path of "null" (a console error): leave it out,
  // and say so when nothing is left to draw.
  const drawn = series.filter((s) => s.data.some((p) => p.y !== null));
  if (drawn.length === 0) {
    return (
      <p role="figure" aria-label={label} style={{ margin: "8px 0", color: "#616161" }}>
        No figures yet for this chart.
      </p>
    );
  }
  return (
    <>
      <Measured height={height} label={label}>
        {(width) => (
          <Line
            width={width}
            height={height}
            data={drawn}
            margin={{ top: 16, right: 16, bottom: (xLegend ? 48 : 32) + (xScale === "point" && slant(width, ticks) ? 20 : 0), left: 64 }}
            xScale={{ type: xScale }}
            yScale={{ type: "linear", min: 0, max: "auto" }}
            colors={COLORS}
            theme={THEME}
            animate={false}
            pointSize={6}
            useMesh={false}
            enableSlices={false}
            axisBottom={{ legend: xLegend, legendOffset: 32, legendPosition: "middle", tickRotation: xScale === "point" ? slant(width, ticks) : 0 }}
            axisLeft={{ format: format as never }}
            role="img"
            ariaLabel={label}
          />
        )}
      </Measured>
      <Legend names={drawn.map((s) => s.id)} />
    </>
  );
}
