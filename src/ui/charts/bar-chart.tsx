/**
 * A horizontal (stacked) bar chart drawn on the server as inline SVG: no JavaScript. It is an
 * image to assistive technology (role="img", named by its <title> and <desc>); the table beside
 * it holds every figure. Each series has a colour with at least 3:1 contrast on white (WCAG
 * 1.4.11) and its own pattern, so bars are told apart without colour; each bar's total is
 * written at its end, and the value axis is labelled with its unit.
 */

export type Tone = "good" | "bad" | "warn" | "neutral" | "other" | "muted";

export type ChartSeries = { key: string; label: string; tone: Tone };
export type ChartBar = { label: string; values: number[] };

export type BarChartProps = {
  id: string;
  title: string;
  description: string;
  series: ChartSeries[];
  bars: ChartBar[];
  /** The value axis' title, with its unit ("Radios", "Commands"). */
  axisLabel: string;
  /** The category axis' title ("Model", "Day"). */
  categoryLabel: string;
  format: (value: number) => string;
};

// Tailwind 700s: each at least 4.5:1 on white, and white patterns on them stay visible.
const colours: Record<Tone, string> = {
  good: "#047857",
  bad: "#b91c1c",
  warn: "#b45309",
  neutral: "#1d4ed8",
  other: "#6d28d9",
  muted: "#475569",
};

/** White marks drawn over the colour, one kind per series position. */
function patternMarks(index: number) {
  switch (index % 6) {
    case 1:
      return <path d="M0,8 L8,0 M-2,2 L2,-2 M6,10 L10,6" stroke="#fff" strokeWidth="1.5" />;
    case 2:
      return <circle cx="4" cy="4" r="1.4" fill="#fff" />;
    case 3:
      return <path d="M0,0 L8,8 M8,0 L0,8" stroke="#fff" strokeWidth="1.2" />;
    case 4:
      return <path d="M0,4 L8,4" stroke="#fff" strokeWidth="1.5" />;
    case 5:
      return <path d="M4,0 L4,8" stroke="#fff" strokeWidth="1.5" />;
    default:
      return null;
  }
}

/** A round step for about five ticks: 1, 2 or 5 times a power of ten. */
export function niceStep(max: number): number {
  if (max <= 5) return 1;
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  return Math.max(1, step);
}

const WIDTH = 760;
const LABEL_WIDTH = 200;
const TOTAL_WIDTH = 64;
const BAR = 18;
const GAP = 8;
const TOP = 8;
const AXIS = 44;

function clip(text: string, max = 28): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function BarChart({ id, title, description, series, bars, axisLabel, categoryLabel, format }: BarChartProps) {
  const totals = bars.map((bar) => bar.values.reduce((sum, v) => sum + v, 0));
  const max = Math.max(1, ...totals);
  const step = niceStep(max);
  const top = Math.ceil(max / step) * step;
  const plot = WIDTH - LABEL_WIDTH - TOTAL_WIDTH;
  const x = (value: number) => LABEL_WIDTH + (value / top) * plot;
  const legendHeight = series.length > 1 ? 28 : 0;
  const height = TOP + legendHeight + bars.length * (BAR + GAP) + AXIS;
  const barsTop = TOP + legendHeight;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  return (
    <svg
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      className="h-auto max-w-3xl text-slate-700"
      fontFamily="inherit"
      fontSize="12"
    >
      <title id={titleId}>{title}</title>
      <desc id={descId}>{description}</desc>
      <defs>
        {series.map((s, i) => (
          <pattern key={s.key} id={`${id}-p${i}`} width="8" height="8" patternUnits="userSpaceOnUse">
            <rect width="8" height="8" fill={colours[s.tone]} />
            {patternMarks(i)}
          </pattern>
        ))}
      </defs>
      {series.length > 1 && (
        <g>
          {series.map((s, i) => {
            const lx = LABEL_WIDTH + (i % 6) * Math.floor(plot / Math.min(series.length, 6));
            return (
              <g key={s.key} transform={`translate(${lx}, ${TOP})`}>
                <rect width="14" height="14" fill={`url(#${id}-p${i})`} stroke="#1e293b" strokeWidth="0.5" />
                <text x="19" y="11" fill="currentColor">
                  {clip(s.label, 16)}
                </text>
              </g>
            );
          })}
        </g>
      )}
      <g>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={barsTop - 2} y2={height - AXIS + 4} stroke="#cbd5e1" strokeWidth="1" />
            <text x={x(tick)} y={height - AXIS + 18} textAnchor="middle" fill="currentColor">
              {format(tick)}
            </text>
          </g>
        ))}
        <text x={LABEL_WIDTH + plot / 2} y={height - 6} textAnchor="middle" fill="currentColor" fontWeight="600">
          {axisLabel}
        </text>
        <text x={LABEL_WIDTH - 8} y={height - 6} textAnchor="end" fill="currentColor" fontWeight="600">
          {categoryLabel}
        </text>
        {bars.map((bar, row) => {
          const y = barsTop + row * (BAR + GAP);
          let start = 0;
          return (
            <g key={`${bar.label}-${bar.values.join("-")}`}>
              <text x={LABEL_WIDTH - 8} y={y + BAR / 2 + 4} textAnchor="end" fill="currentColor">
                {clip(bar.label)}
              </text>
              {bar.values.map((value, i) => {
                const from = start;
                start += value;
                if (value <= 0) return null;
                return (
                  <rect
                    key={series[i]?.key ?? i}
                    x={x(from)}
                    y={y}
                    width={Math.max(1, x(start) - x(from))}
                    height={BAR}
                    fill={`url(#${id}-p${i})`}
                    stroke="#fff"
                    strokeWidth="0.5"
                  />
                );
              })}
              <text x={x(totals[row] ?? 0) + 6} y={y + BAR / 2 + 4} fill="currentColor" fontWeight="600">
                {format(totals[row] ?? 0)}
              </text>
            </g>
          );
        })}
        <line x1={LABEL_WIDTH} x2={LABEL_WIDTH} y1={barsTop - 2} y2={height - AXIS + 4} stroke="#475569" strokeWidth="1" />
      </g>
    </svg>
  );
}
