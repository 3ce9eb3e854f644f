package io.ants4j.benchmarks.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Hand-written SVG charts: a line chart over categories and a horizontal bar chart. */
final class Svg {
    private Svg() {
    }

    /** Ours first in warm colours, the JDK peers in cool ones. */
    static final String[] OURS = {"#d62728", "#ff7f0e", "#e377c2", "#8c564b"};
    static final String[] OTHERS = {"#1f77b4", "#2ca02c", "#9467bd", "#17becf", "#7f7f7f", "#bcbd22", "#393b79"};

    /** One line of a line chart, or one bar. */
    record Series(String name, List<Double> values, boolean ours) {
    }

    static String lineChart(String title, String xTitle, String yTitle, List<String> xs, List<Series> series) {
        int longest = 0;
        for (Series s : series) {
            longest = Math.max(longest, s.name().length());
        }
        int right = 70 + 7 * longest; // room for the legend
        int w = 550 + right;
        int h = 440;
        int left = 90;
        int top = 50;
        int bottom = 60;
        int pw = w - left - right;
        int ph = h - top - bottom;
        double max = 0;
        for (Series s : series) {
            for (Double v : s.values()) {
                if (v != null && !v.isNaN()) {
                    max = Math.max(max, v);
                }
            }
        }
        double[] ticks = ticks(max);
        double top2 = ticks[ticks.length - 1];
        StringBuilder b = header(w, h, title);
        // grid and y axis
        for (double t : ticks) {
            double y = top + ph - (t / top2) * ph;
            b.append(String.format(Locale.ROOT,
                    "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#e0e0e0'/>%n", left, y, left + pw, y));
            b.append(String.format(Locale.ROOT,
                    "<text x='%d' y='%.1f' text-anchor='end' font-size='12'>%s</text>%n", left - 6, y + 4, fmtTick(t)));
        }
        b.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>%n", left, top, left, top + ph));
        b.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>%n", left, top + ph, left + pw, top + ph));
        int n = xs.size();
        double step = n > 1 ? (double) pw / (n - 1) : 0;
        double x0 = n > 1 ? left : left + pw / 2.0;
        for (int k = 0; k < n; k++) {
            double x = x0 + k * step;
            b.append(String.format(Locale.ROOT,
                    "<text x='%.1f' y='%d' text-anchor='middle' font-size='12'>%s</text>%n", x, top + ph + 18, esc(xs.get(k))));
        }
        b.append(String.format(Locale.ROOT,
                "<text x='%.1f' y='%d' text-anchor='middle' font-size='13'>%s</text>%n", left + pw / 2.0, h - 18, esc(xTitle)));
        b.append(String.format(Locale.ROOT,
                "<text x='18' y='%.1f' text-anchor='middle' font-size='13' transform='rotate(-90 18 %.1f)'>%s</text>%n",
                top + ph / 2.0, top + ph / 2.0, esc(yTitle)));
        int oi = 0;
        int pi = 0;
        int li = 0;
        for (Series s : series) {
            String color = s.ours() ? OURS[oi++ % OURS.length] : OTHERS[pi++ % OTHERS.length];
            String width = s.ours() ? "3" : "2";
            StringBuilder path = new StringBuilder();
            StringBuilder dots = new StringBuilder();
            for (int k = 0; k < n && k < s.values().size(); k++) {
                Double v = s.values().get(k);
                if (v == null || v.isNaN()) {
                    continue;
                }
                double x = x0 + k * step;
                double y = top + ph - (v / top2) * ph;
                path.append(path.isEmpty() ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
                dots.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='3.5' fill='%s'/>%n", x, y, color));
            }
            if (!path.isEmpty()) {
                b.append(String.format(Locale.ROOT,
                        "<path d='%s' fill='none' stroke='%s' stroke-width='%s'%s/>%n", path, color, width,
                        s.ours() ? "" : ""));
            }
            b.append(dots);
            double ly = top + 10 + li * 22;
            b.append(String.format(Locale.ROOT,
                    "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='%s' stroke-width='%s'/>%n",
                    left + pw + 16, ly, left + pw + 40, ly, color, width));
            b.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' font-size='12'%s>%s</text>%n",
                    left + pw + 46, ly + 4, s.ours() ? " font-weight='bold'" : "", esc(s.name())));
            li++;
        }
        return b.append("</svg>\n").toString();
    }

    /** Horizontal bars, one per entry, with the value written after each bar. */
    static String barChart(String title, String unit, List<Map.Entry<String, Double>> bars, List<Boolean> ours) {
        int w = 760;
        int rowH = 28;
        int top = 50;
        int left = 250;
        int right = 110;
        int h = top + bars.size() * rowH + 40;
        int pw = w - left - right;
        double max = 0;
        for (Map.Entry<String, Double> e : bars) {
            if (e.getValue() != null && !e.getValue().isNaN()) {
                max = Math.max(max, e.getValue());
            }
        }
        double[] ticks = ticks(max);
        double top2 = ticks[ticks.length - 1];
        StringBuilder b = header(w, h, title);
        int bottomY = top + bars.size() * rowH;
        for (double t : ticks) {
            double x = left + (t / top2) * pw;
            b.append(String.format(Locale.ROOT,
                    "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#e0e0e0'/>%n", x, top - 4, x, bottomY));
            b.append(String.format(Locale.ROOT,
                    "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%s</text>%n", x, bottomY + 16, fmtTick(t)));
        }
        b.append(String.format(Locale.ROOT,
                "<text x='%.1f' y='%d' text-anchor='middle' font-size='12'>%s</text>%n", left + pw / 2.0, bottomY + 32, esc(unit)));
        for (int k = 0; k < bars.size(); k++) {
            Map.Entry<String, Double> e = bars.get(k);
            boolean o = ours.get(k);
            double y = top + k * rowH;
            b.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' text-anchor='end' font-size='12'%s>%s</text>%n",
                    left - 8, y + rowH / 2.0 + 4, o ? " font-weight='bold'" : "", esc(e.getKey())));
            Double v = e.getValue();
            if (v == null || v.isNaN()) {
                b.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' font-size='12' fill='#999'>n/a</text>%n",
                        left + 4, y + rowH / 2.0 + 4));
                continue;
            }
            double bw = Math.max(1, v / top2 * pw);
            b.append(String.format(Locale.ROOT,
                    "<rect x='%d' y='%.1f' width='%.1f' height='%d' fill='%s'/>%n", left, y + 4, bw, rowH - 8,
                    o ? OURS[0] : OTHERS[0]));
            b.append(String.format(Locale.ROOT, "<text x='%.1f' y='%.1f' font-size='12'>%s</text>%n",
                    left + bw + 6, y + rowH / 2.0 + 4, esc(Report.fmt(v))));
        }
        return b.append("</svg>\n").toString();
    }

    private static StringBuilder header(int w, int h, String title) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d' font-family='Helvetica, Arial, sans-serif'>%n",
                w, h, w, h));
        b.append(String.format(Locale.ROOT, "<rect width='%d' height='%d' fill='white'/>%n", w, h));
        b.append(String.format(Locale.ROOT,
                "<text x='%d' y='28' text-anchor='middle' font-size='16' font-weight='bold'>%s</text>%n", w / 2, esc(title)));
        return b;
    }

    /** 4–6 round tick values from 0 to at least max. */
    static double[] ticks(double max) {
        if (!(max > 0)) {
            return new double[] {0, 1};
        }
        double raw = max / 5;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = mag;
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * mag >= raw) {
                step = m * mag;
                break;
            }
        }
        int count = (int) Math.ceil(max / step);
        double[] t = new double[count + 1];
        for (int k = 0; k <= count; k++) {
            t[k] = k * step;
        }
        return t;
    }

    private static String fmtTick(double t) {
        if (t == Math.rint(t)) {
            return String.format(Locale.ROOT, "%,d", (long) t);
        }
        return java.math.BigDecimal.valueOf(t).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;");
    }
}
