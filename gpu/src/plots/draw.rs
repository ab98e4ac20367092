//! Draws a [`BarChart`] with plotters, on the SVG or the bitmap (PNG) backend:
//! groups of bars along x, one colour per series, value labels on the bars,
//! dashed reference lines, the legend in headroom above the bars so that it
//! never covers one, and the chart's note underneath.

use std::path::Path;

use std::ops::Range;

use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::data::{BarChart, YScale};
use sl1_gpu_base::plot::backend::WithFont;
use sl1_gpu_base::plot::font::{Fonts, FAMILY};

const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
];
const LINE_COLOURS: [RGBColor; 2] = [RGBColor(0, 0, 0), RGBColor(214, 39, 40)];

/// Share of a group's width the bars take (the rest separates groups).
const BARS_SHARE: f64 = 0.76;
// Text sizes as plotters counts them: 1.24 times the em in pixels.
const TITLE_FONT: u32 = 26;
const LABEL_FONT: u32 = 18;
const TICK_FONT: u32 = 17;
const LEGEND_FONT: u32 = 18;
const VALUE_FONT: u32 = 16;
const NOTE_FONT: u32 = 17;
const LEGEND_ROW: u32 = 24;

/// Pixel sizes of one chart, from its contents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    /// Height under the x axis for the group labels.
    pub x_label_area: u32,
    /// Group labels are written vertically: they would not fit across.
    pub rotate_labels: bool,
    /// Height of the note line at the bottom (0 without a note).
    pub note_area: u32,
}

/// Rough width of `text` at plotters' `size` in DejaVu Sans (0.62 em a character).
fn text_width(text: &str, size: u32) -> u32 {
    (text.chars().count() as f64 * f64::from(size) / 1.24 * 0.62).ceil() as u32
}

pub fn layout(chart: &BarChart) -> Layout {
    let groups = chart.groups.len().max(1) as u32;
    let bars = chart.series.len().max(1) as u32;
    let slot = (bars * 34 + 34).max(90);
    let title = text_width(&chart.title, TITLE_FONT) + 80;
    let width = (130 + groups * slot).clamp(900, 3200).max(title);
    let slot = (width - 130) / groups;
    let widest = chart
        .groups
        .iter()
        .map(|g| text_width(g, LABEL_FONT))
        .max()
        .unwrap_or(0);
    let rotate_labels = widest + 8 > slot;
    let x_label_area = if rotate_labels { widest + 24 } else { 40 };
    let note_area = if chart.note.is_some() { 28 } else { 0 };
    Layout {
        width,
        height: 560 + x_label_area + note_area,
        x_label_area,
        rotate_labels,
        note_area,
    }
}

/// Bottom and top of the y axis: room for every value and line, for the value
/// labels, and above all of them for the legend's rows.
pub fn y_range(chart: &BarChart, layout: &Layout) -> (f64, f64) {
    let values: Vec<f64> = chart.values().collect();
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let rows = (chart.series.len() + chart.lines.len()) as u32;
    // The plot's height in pixels, about: less the caption, the labels, the note.
    let plot = f64::from(layout.height - layout.x_label_area - layout.note_area - 70);
    let legend = f64::from(rows * LEGEND_ROW + 40) / plot;
    let free = (1.0 - legend).max(0.4);
    match chart.y_scale {
        YScale::Linear => {
            let lo = if lo.is_finite() { lo.min(0.0) } else { 0.0 };
            let hi = if hi.is_finite() && hi > lo {
                hi
            } else {
                lo + 1.0
            };
            // Below zero: room for the labels of negative bars.
            let lo = if lo < 0.0 { lo - 0.08 * (hi - lo) } else { lo };
            (lo, lo + (hi - lo) / free)
        }
        YScale::Log => {
            let positive = values.iter().copied().filter(|v| *v > 0.0);
            let lo = positive.clone().fold(f64::INFINITY, f64::min);
            let hi = positive.fold(0.0, f64::max);
            let (lo, hi) = if lo.is_finite() {
                (lo, hi)
            } else {
                (1.0, 10.0)
            };
            // From the power of ten under the smallest value.
            let lo = 10f64.powf(lo.log10().floor()).min(lo / 2.0);
            let span = (hi.log10() - lo.log10()).max(1.0);
            (lo, 10f64.powf(lo.log10() + span / free))
        }
    }
}

pub fn svg(chart: &BarChart, fonts: &'static Fonts, path: &Path) -> Result<(), String> {
    let layout = layout(chart);
    let backend = SVGBackend::new(path, (layout.width, layout.height));
    let root = WithFont::vector(backend, fonts).into_drawing_area();
    draw(&root, chart, &layout).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

pub fn png(chart: &BarChart, fonts: &'static Fonts, path: &Path) -> Result<(), String> {
    let layout = layout(chart);
    let backend = BitMapBackend::new(path, (layout.width, layout.height));
    let root = WithFont::bitmap(backend, fonts).into_drawing_area();
    draw(&root, chart, &layout).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// The x axis: group `i` spans `i..i + 1`, its tick (and label) at the centre.
struct GroupAxis {
    groups: usize,
}

impl Ranged for GroupAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let share = value / self.groups.max(1) as f64;
        limit.0 + (f64::from(limit.1 - limit.0) * share).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            (0..self.groups).map(|i| i as f64 + 0.5).collect()
        }
    }

    fn range(&self) -> Range<f64> {
        0.0..self.groups as f64
    }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &BarChart,
    layout: &Layout,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let (plot_area, note_area) =
        root.split_vertically(layout.height.saturating_sub(layout.note_area));
    if let Some(note) = &chart.note {
        note_area.draw_text(
            note,
            &TextStyle::from((FAMILY, NOTE_FONT).into_font()).color(&RGBColor(80, 80, 80)),
            (16, 4),
        )?;
    }
    let (lo, hi) = y_range(chart, layout);
    match chart.y_scale {
        YScale::Linear => bars(&plot_area, chart, layout, lo..hi, 0.0),
        YScale::Log => bars(&plot_area, chart, layout, (lo..hi).log_scale(), lo),
    }
}

/// The chart itself on coordinates whose y axis is `y`; bars grow from `base`.
fn bars<DB, Y>(
    area: &DrawingArea<DB, Shift>,
    chart: &BarChart,
    layout: &Layout,
    y: Y,
    base: f64,
) -> DrawResult<DB>
where
    DB: DrawingBackend,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let groups = chart.groups.len();
    let n = groups as f64;
    let mut ctx = ChartBuilder::on(area)
        .caption(&chart.title, (FAMILY, TITLE_FONT).into_font())
        .margin(14)
        .x_label_area_size(layout.x_label_area)
        .y_label_area_size(84)
        .build_cartesian_2d(GroupAxis { groups }, y)?;

    let unit = chart.unit;
    // Upright group labels are drawn below by hand: the mesh centres every
    // x label on its tick, which would put half of an upright one over the bars.
    let group_label = |x: &f64| {
        if layout.rotate_labels {
            return String::new();
        }
        chart
            .groups
            .get(x.floor().max(0.0) as usize)
            .cloned()
            .unwrap_or_default()
    };
    ctx.configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&group_label)
        .x_label_style((FAMILY, LABEL_FONT))
        .y_label_formatter(&|v: &f64| unit.tick(*v))
        .y_label_style((FAMILY, TICK_FONT))
        .y_desc(&chart.y_label)
        .axis_desc_style((FAMILY, TICK_FONT + 2))
        .y_max_light_lines(2)
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(200, 200, 200))
        .draw()?;
    if layout.rotate_labels {
        let axis_y = ctx.plotting_area().get_pixel_range().1.end;
        let style = TextStyle::from((FAMILY, LABEL_FONT).into_font())
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (g, label) in chart.groups.iter().enumerate() {
            let x = ctx.backend_coord(&(g as f64 + 0.5, base)).0;
            area.draw(&Text::new(label.as_str(), (x, axis_y + 10), style.clone()))?;
        }
    }

    // Bars, one colour per series.
    let series = chart.series.len().max(1) as f64;
    let bar = BARS_SHARE / series;
    let left = |g: usize, s: usize| g as f64 + (1.0 - BARS_SHARE) / 2.0 + s as f64 * bar;
    for (s, data) in chart.series.iter().enumerate() {
        let colour = PALETTE[s % PALETTE.len()];
        let rects = data.values.iter().enumerate().filter_map(|(g, v)| {
            let x0 = left(g, s);
            Some(Rectangle::new(
                [(x0 + bar * 0.06, base), (x0 + bar * 0.94, (*v)?)],
                colour.filled(),
            ))
        });
        ctx.draw_series(rects)?
            .label(&data.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 7), (x + 16, y + 7)], colour.filled()));
    }

    // Reference lines across the whole chart.
    for (i, line) in chart.lines.iter().enumerate() {
        let style = LINE_COLOURS[i % LINE_COLOURS.len()].stroke_width(2);
        ctx.draw_series(DashedLineSeries::new(
            [(0.0, line.value), (n, line.value)],
            10,
            6,
            style,
        ))?
        .label(&line.label)
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], style));
    }

    // Value labels over the lines, at a size that fits the bar, or none.
    let bar_px = f64::from(layout.width - 130) / n.max(1.0) * bar;
    for (s, data) in chart.series.iter().enumerate() {
        let widest = data
            .values
            .iter()
            .flatten()
            .map(|v| unit.label(*v).chars().count())
            .max()
            .unwrap_or(1) as f64;
        let size = (bar_px / (widest * 0.5)).min(f64::from(VALUE_FONT)).floor();
        if size < 11.0 {
            continue;
        }
        let em = size / 1.24;
        let labels = data.values.iter().enumerate().filter_map(|(g, v)| {
            let v = (*v)?;
            let x = left(g, s) + bar / 2.0;
            let text = unit.label(v);
            // A light box under the text keeps it readable over a reference line.
            let half = (text.chars().count() as f64 * em * 0.33).ceil() as i32 + 1;
            let (dy, vpos, top, bottom) = if v < base {
                (4, VPos::Top, 4, 4 + (0.85 * em) as i32)
            } else {
                (
                    -4,
                    VPos::Bottom,
                    -4 - (1.05 * em) as i32,
                    -4 - (0.15 * em) as i32,
                )
            };
            let style = TextStyle::from((FAMILY, size).into_font())
                .color(&RGBColor(50, 50, 50))
                .pos(Pos::new(HPos::Center, vpos));
            Some(
                EmptyElement::at((x, v))
                    + Rectangle::new([(-half, top), (half, bottom)], WHITE.mix(0.8).filled())
                    + Text::new(text, (0, dy), style),
            )
        });
        ctx.draw_series(labels)?;
    }

    ctx.configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FAMILY, LEGEND_FONT))
        .margin(10)
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(160, 160, 160))
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::data::{tests::full, threads};
    use crate::plots::data::{RefLine, Series, Unit};

    fn chart(groups: &[&str], values: &[f64], scale: YScale) -> BarChart {
        BarChart {
            name: "t",
            title: "t".into(),
            y_label: "y".into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            series: vec![Series {
                name: "s".into(),
                values: values.iter().map(|v| Some(*v)).collect(),
            }],
            lines: vec![RefLine {
                value: 1.0,
                label: "one".into(),
            }],
            y_scale: scale,
            unit: Unit::Ratio,
            note: None,
        }
    }

    #[test]
    fn y_range_leaves_room_above_the_bars_for_the_legend() {
        let c = chart(&["a", "b"], &[0.5, 4.0], YScale::Linear);
        let (lo, hi) = y_range(&c, &layout(&c));
        assert_eq!(lo, 0.0);
        assert!(hi > 4.4, "{hi}");
        let c = chart(&["a"], &[-20.0], YScale::Linear);
        let (lo, hi) = y_range(&c, &layout(&c));
        assert!(lo < -20.0 && hi > 1.0, "{lo}..{hi}");
    }

    #[test]
    fn log_range_starts_at_a_power_of_ten() {
        let c = threads(&full()).unwrap();
        let (lo, hi) = y_range(&c, &layout(&c));
        assert_eq!(lo, 10_000.0);
        assert!(hi > 135_168.0 * 1.5, "{hi}");
    }

    #[test]
    fn long_labels_are_turned_upright() {
        let short = chart(&["upper", "wc"], &[1.0, 2.0], YScale::Linear);
        assert!(!layout(&short).rotate_labels);
        let names: Vec<String> = (0..30)
            .map(|i| format!("application{i}/argument"))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let long = chart(&names, &[1.0; 30], YScale::Linear);
        let l = layout(&long);
        assert!(l.rotate_labels && l.x_label_area > 100, "{l:?}");
    }
}
