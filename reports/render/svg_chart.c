// SPDX-License-Identifier: MIT
/*
 * Line charts as inline SVG for the HTML report (coverage, execs/s and
 * findings over time), drawn in C so a report needs no plotting tool:
 * axes from zero with "nice" 1-2-5 ticks, time in s, min or h, one line
 * per AFL++ instance with a legend, long series thinned to about one
 * point per pixel column. Also the XML escaping the HTML shares.
 */
#include <math.h>
#include <string.h>

#include "render_int.h"

#define W 560.0                       /* the viewBox */
#define PLOT_L 64.0                   /* plot area margins */
#define PLOT_R 16.0
#define PLOT_T 34.0
#define PLOT_H 190.0
#define LEGEND_W 180.0                /* one legend entry */
#define LEGEND_H 18.0
#define MAX_POINTS 600                /* per line, after thinning */

static const char *const palette[8] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
	"#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};

void dfz__xml_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	while (n) {
		size_t k = dfz_utf8_len(p, n);

		if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p == '"')
			fputs("&quot;", f);
		else if (*p == '\'')
			fputs("&#39;", f);
		else if ((*p < 0x20 && !strchr("\t\n\r", *p)) || *p == 0x7f ||
			 !k || (k == 3 && p[0] == 0xef && p[1] == 0xbf &&
				p[2] >= 0xbe))
			fputs("\xef\xbf\xbd", f);     /* not an XML char */
		else
			fwrite(p, 1, k, f);
		k = k ? k : 1;
		p += k;
		n -= k;
	}
}

/* A 1-2-5 step for about @ticks intervals over [0, @max]; >= @min_step. */
static double nice_step(double max, int ticks, double min_step)
{
	double raw = max / ticks, mag, norm, step;

	if (!(raw > 0))
		return min_step > 0 ? min_step : 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
	return step < min_step ? min_step : step;
}

/* A tick label: plain up to 9999, then k and M. */
static void tick_label(double v, double step, char *buf, size_t len)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (fabs(v) >= 1e6)
		snprintf(buf, len, "%gM", round(v / 1e4) / 100);
	else if (fabs(v) >= 1e4)
		snprintf(buf, len, "%gk", round(v / 10) / 100);
	else
		snprintf(buf, len, "%.*f", dec > 6 ? 6 : dec, v);
}

struct axes {
	double xmax;                      /* in the time unit */
	double xstep;
	double xscale;                    /* seconds per unit */
	const char *xunit;
	double ymax;
	double ystep;
};

static void pick_axes(const struct dfz__line *lines, size_t nlines,
		      enum dfz__unit unit, struct axes *a)
{
	double tmax = 0, ymax = 0;

	for (size_t i = 0; i < nlines; i++)
		for (size_t j = 0; j < lines[i].n; j++) {
			if (lines[i].x[j] > tmax)
				tmax = lines[i].x[j];
			if (lines[i].y[j] > ymax)
				ymax = lines[i].y[j];
		}
	a->xscale = tmax > 7200 ? 3600 : tmax > 180 ? 60 : 1;
	a->xunit = tmax > 7200 ? "h" : tmax > 180 ? "min" : "s";
	a->xstep = nice_step(tmax / a->xscale, 6, 0);
	a->xmax = a->xstep * ceil(tmax / a->xscale / a->xstep);
	if (a->xmax <= 0)
		a->xmax = a->xstep;
	if (unit == DFZ__UNIT_PCT && ymax > 50)
		ymax = 100;
	a->ystep = nice_step(ymax, 5, unit == DFZ__UNIT_COUNT ? 1 : 0);
	a->ymax = a->ystep * ceil(ymax / a->ystep);
	if (a->ymax <= 0)
		a->ymax = a->ystep;
}

static double px(const struct axes *a, double t)
{
	return PLOT_L + (W - PLOT_L - PLOT_R) * (t / a->xscale) / a->xmax;
}

static double py(const struct axes *a, double v)
{
	return PLOT_T + PLOT_H - PLOT_H * (v < 0 ? 0 : v) / a->ymax;
}

static void draw_axes(FILE *f, const struct axes *a, const char *ylabel,
		      enum dfz__unit unit)
{
	const double x0 = PLOT_L, x1 = W - PLOT_R, y0 = PLOT_T + PLOT_H;
	char lab[32];

	fprintf(f, "<g class=\"grid\">");
	for (int i = 0; i <= (int)lround(a->ymax / a->ystep); i++) {
		double v = i * a->ystep, y = py(a, v);

		tick_label(v, a->ystep, lab, sizeof(lab));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s%s</text>",
			x0, y, x1, y, x0 - 6, y + 4, lab,
			unit == DFZ__UNIT_PCT ? "%" : "");
	}
	for (int i = 0; i <= (int)lround(a->xmax / a->xstep); i++) {
		double v = i * a->xstep, x = px(a, v * a->xscale);

		tick_label(v, a->xstep, lab, sizeof(lab));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
			x, PLOT_T, x, y0 + 4, x, y0 + 17, lab);
	}
	fprintf(f, "</g><path class=\"axis\" d=\"M%.1f %.1fV%.1fH%.1f\"/>", x0,
		PLOT_T, y0, x1);
	fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"middle\">time (%s)</text>", (x0 + x1) / 2,
		y0 + 34, a->xunit);
	fprintf(f, "<text class=\"label\" transform=\"translate(14 %.1f) "
		"rotate(-90)\" text-anchor=\"middle\">", PLOT_T + PLOT_H / 2);
	dfz__xml_escape(f, ylabel);
	fputs("</text>", f);
}

static void draw_line(FILE *f, const struct axes *a,
		      const struct dfz__line *l, size_t i)
{
	size_t stride = l->n > MAX_POINTS ? (l->n + MAX_POINTS - 1) / MAX_POINTS
					  : 1;

	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s "
		"points=\"", palette[i % 8],
		i >= 8 ? " stroke-dasharray=\"5 3\"" : "");
	for (size_t j = 0; j < l->n; j += stride)
		fprintf(f, "%s%.1f,%.1f", j ? " " : "", px(a, l->x[j]),
			py(a, l->y[j]));
	if ((l->n - 1) % stride)
		fprintf(f, " %.1f,%.1f", px(a, l->x[l->n - 1]),
			py(a, l->y[l->n - 1]));
	fputs("\"/>", f);
	if (l->n == 1)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
			px(a, l->x[0]), py(a, l->y[0]), palette[i % 8]);
}

static void draw_legend(FILE *f, const struct dfz__line *lines,
			size_t nlines, double top)
{
	int per_row = (int)((W - PLOT_L) / LEGEND_W);

	for (size_t i = 0; i < nlines; i++) {
		double x = PLOT_L + LEGEND_W * (double)(i % (size_t)per_row);
		double y = top + LEGEND_H * (double)(i / (size_t)per_row);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"3\"%s/>"
			"<text x=\"%.1f\" y=\"%.1f\">", x, y, x + 18, y,
			palette[i % 8],
			i >= 8 ? " stroke-dasharray=\"5 3\"" : "", x + 24, y + 4);
		dfz__xml_escape(f, lines[i].name);
		fputs("</text>", f);
	}
}

void dfz__svg_chart(FILE *f, const char *title, const char *ylabel,
		    const struct dfz__line *lines, size_t nlines,
		    enum dfz__unit unit)
{
	size_t shown = nlines < DFZ__CHART_MAX_LINES ? nlines
						     : DFZ__CHART_MAX_LINES;
	int per_row = (int)((W - PLOT_L) / LEGEND_W);
	double legend_top = PLOT_T + PLOT_H + 52;
	double h = legend_top + LEGEND_H * (double)((shown + (size_t)per_row - 1) /
						    (size_t)per_row);
	size_t drawn = 0;
	struct axes a;

	pick_axes(lines, shown, unit, &a);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
		"viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
		"role=\"img\"><title>", W, h, W, h);
	dfz__xml_escape(f, title);
	fprintf(f, "</title><text class=\"title\" x=\"%.1f\" y=\"20\">", PLOT_L);
	dfz__xml_escape(f, title);
	fputs("</text>", f);
	draw_axes(f, &a, ylabel, unit);
	for (size_t i = 0; i < shown; i++)
		if (lines[i].n) {
			draw_line(f, &a, &lines[i], i);
			drawn++;
		}
	if (!drawn)
		fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">no plot_data</text>",
			(PLOT_L + W - PLOT_R) / 2, PLOT_T + PLOT_H / 2);
	draw_legend(f, lines, shown, legend_top);
	if (shown < nlines)
		fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"20\" "
			"text-anchor=\"end\">%zu more not drawn</text>",
			W - PLOT_R, nlines - shown);
	fputs("</svg>\n", f);
}
