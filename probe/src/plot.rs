//! Plots of a probe run, as SVG and PNG: x-y charts (lines with markers, or
//! points alone for per-access latencies), log axes where sizes double.
//! [`charts`] computes what each shows from the data (pure, tested);
//! [`write_all`] draws them with the fonts and backend of `sl1_gpu_base::plot`.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::data::{ChasePath, ProbeData, ThroughputTarget};
use sl1_gpu_base::plot::backend::WithFont;
use sl1_gpu_base::plot::font::{self, FAMILY};
use sl1_gpu_base::plot::PlotError;

/// One x-y chart.
#[derive(Clone, Debug, PartialEq)]
pub struct XyChart {
    /// File stem.
    pub name: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_log: bool,
    /// Points without lines (a series of single accesses).
    pub points_only: bool,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

impl XyChart {
    fn bounds(&self) -> Option<((f64, f64), (f64, f64))> {
        let points = self.series.iter().flat_map(|(_, p)| p.iter());
        let xs: Vec<f64> = points.clone().map(|p| p.0).collect();
        let ys: Vec<f64> = points.map(|p| p.1).collect();
        let range = |v: &[f64]| {
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
        };
        let (x0, x1) = range(&xs)?;
        let (_, y1) = range(&ys)?;
        let x1 = if x1 > x0 { x1 } else { x0 + 1.0 };
        Some(((x0, x1), (0.0, if y1 > 0.0 { y1 * 1.08 } else { 1.0 })))
    }
}

fn mean(v: &[u32]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len() as f64
    }
}

/// Mean latency against footprint, one series per path, at each path's
/// footprint-sweep stride (the most common stride of its runs).
fn footprint_chart(data: &ProbeData) -> XyChart {
    let mut series = Vec::new();
    for path in ChasePath::ALL {
        let runs: Vec<_> = data.chases.iter().filter(|r| r.path == path).collect();
        let Some(stride) = most_common(runs.iter().map(|r| r.stride_bytes)) else {
            continue;
        };
        let mut points: Vec<(f64, f64)> = runs
            .iter()
            .filter(|r| r.stride_bytes == stride)
            .map(|r| (r.footprint_bytes as f64 / 1024.0, mean(&r.latencies)))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        points.dedup_by(|a, b| a.0 == b.0);
        if points.len() > 1 {
            series.push((format!("{} ({stride} B stride)", path.label()), points));
        }
    }
    XyChart {
        name: "chase-footprint".into(),
        title: "Pointer chase: mean latency by footprint".into(),
        x_label: "footprint (KiB)".into(),
        y_label: "cycles per access".into(),
        x_log: true,
        points_only: false,
        series,
    }
}

fn most_common(values: impl Iterator<Item = u64>) -> Option<u64> {
    let mut counts = std::collections::BTreeMap::new();
    for v in values {
        *counts.entry(v).or_insert(0u32) += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(v, n)| (n, v))
        .map(|(v, _)| v)
}

/// Mean latency against stride at the largest footprint of each path that
/// was run with several strides (the fill-unit sweep).
fn stride_chart(data: &ProbeData) -> XyChart {
    let mut series = Vec::new();
    for path in ChasePath::ALL {
        let runs: Vec<_> = data.chases.iter().filter(|r| r.path == path).collect();
        let footprint = most_common(
            runs.iter()
                .filter(|r| {
                    runs.iter().any(|o| {
                        o.footprint_bytes == r.footprint_bytes && o.stride_bytes != r.stride_bytes
                    })
                })
                .map(|r| r.footprint_bytes),
        );
        let Some(footprint) = footprint else { continue };
        let mut points: Vec<(f64, f64)> = runs
            .iter()
            .filter(|r| r.footprint_bytes == footprint)
            .map(|r| (r.stride_bytes as f64, mean(&r.latencies)))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        series.push((
            format!("{} ({} KiB)", path.label(), footprint / 1024),
            points,
        ));
    }
    XyChart {
        name: "chase-stride".into(),
        title: "Pointer chase beyond capacity: mean latency by stride".into(),
        x_label: "stride (B)".into(),
        y_label: "cycles per access".into(),
        x_log: true,
        points_only: false,
        series,
    }
}

/// Every recorded access of one run per global path: the first run just
/// above the path's capacity shows which accesses miss (fine-grained).
fn accesses_chart(data: &ProbeData, path: ChasePath) -> Option<XyChart> {
    let runs: Vec<_> = data.chases.iter().filter(|r| r.path == path).collect();
    // The run with the largest share of misses among those with some hits
    // is the most telling; lacking latency levels here, take the run whose
    // latency spread (max/min) is largest.
    let run = runs.iter().max_by(|a, b| {
        let spread = |r: &&&super::data::ChaseRun| {
            let lo = r.latencies.iter().min().copied().unwrap_or(1).max(1);
            let hi = r.latencies.iter().max().copied().unwrap_or(1);
            f64::from(hi) / f64::from(lo) * r.latencies.len().min(1) as f64
        };
        spread(a).total_cmp(&spread(b))
    })?;
    let points: Vec<(f64, f64)> = run
        .latencies
        .iter()
        .enumerate()
        .map(|(i, &l)| (i as f64, f64::from(l)))
        .collect();
    Some(XyChart {
        name: format!("chase-accesses-{}", path_stem(path)),
        title: format!(
            "{}: every access, {} KiB footprint, {} B stride",
            path.label(),
            run.footprint_bytes / 1024,
            run.stride_bytes
        ),
        x_label: "access".into(),
        y_label: "cycles".into(),
        x_log: false,
        points_only: true,
        series: vec![(path.label().to_string(), points)],
    })
}

fn path_stem(path: ChasePath) -> &'static str {
    match path {
        ChasePath::L1 => "l1",
        ChasePath::L2 => "l2",
        ChasePath::ReadOnly => "read-only",
        ChasePath::Shared => "shared",
    }
}

fn shared_chart(data: &ProbeData) -> XyChart {
    let mut series = Vec::new();
    for word in [4u32, 8] {
        let mut points: Vec<(f64, f64)> = data
            .shared_strides
            .iter()
            .filter(|r| r.word_bytes == word)
            .map(|r| (f64::from(r.stride_words), r.cycles_per_access))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        if !points.is_empty() {
            series.push((format!("{word}-byte words"), points));
        }
    }
    XyChart {
        name: "shared-stride".into(),
        title: "Shared memory: latency by stride (bank conflicts)".into(),
        x_label: "stride (words)".into(),
        y_label: "cycles per access".into(),
        x_log: false,
        points_only: false,
        series,
    }
}

/// GB/s against threads per block, one series per block count, for each
/// target at its most common coalescing degree (the paper's figure 5); and
/// GB/s against blocks at the largest block size (figure 6).
fn throughput_charts(data: &ProbeData) -> Vec<XyChart> {
    let mut charts = Vec::new();
    let targets = [
        ThroughputTarget::L2,
        ThroughputTarget::Dram,
        ThroughputTarget::Shared,
    ];
    let mut by_blocks = Vec::new();
    for target in targets {
        let points: Vec<_> = data
            .throughput
            .iter()
            .filter(|p| p.target == target)
            .collect();
        let Some(coalescing) = most_common(points.iter().map(|p| u64::from(p.coalescing))) else {
            continue;
        };
        let points: Vec<_> = points
            .into_iter()
            .filter(|p| u64::from(p.coalescing) == coalescing)
            .collect();
        let mut blocks: Vec<u32> = points.iter().map(|p| p.blocks).collect();
        blocks.sort_unstable();
        blocks.dedup();
        let series = blocks
            .iter()
            .map(|&b| {
                let mut s: Vec<(f64, f64)> = points
                    .iter()
                    .filter(|p| p.blocks == b)
                    .map(|p| (f64::from(p.threads), p.gbps()))
                    .collect();
                s.sort_by(|a, b| a.0.total_cmp(&b.0));
                (format!("{b} block(s)"), s)
            })
            .collect();
        let stem = match target {
            ThroughputTarget::L2 => "l2",
            ThroughputTarget::Dram => "dram",
            ThroughputTarget::Shared => "shared",
        };
        charts.push(XyChart {
            name: format!("throughput-{stem}"),
            title: format!("{} throughput, {coalescing}-way coalesced", target.label()),
            x_label: "threads per block".into(),
            y_label: "GB/s".into(),
            x_log: false,
            points_only: false,
            series,
        });
        if let Some(top) = points.iter().map(|p| p.threads).max() {
            let mut s: Vec<(f64, f64)> = points
                .iter()
                .filter(|p| p.threads == top)
                .map(|p| (f64::from(p.blocks), p.gbps()))
                .collect();
            s.sort_by(|a, b| a.0.total_cmp(&b.0));
            by_blocks.push((format!("{} ({top} threads)", target.label()), s));
        }
    }
    if !by_blocks.is_empty() {
        charts.push(XyChart {
            name: "throughput-blocks".into(),
            title: "Throughput by number of blocks".into(),
            x_label: "blocks".into(),
            y_label: "GB/s".into(),
            x_log: true,
            points_only: false,
            series: by_blocks,
        });
    }
    charts
}

/// Every chart the data allows (a chart without series is left out).
pub fn charts(data: &ProbeData) -> Vec<XyChart> {
    let mut out = vec![footprint_chart(data), stride_chart(data)];
    for path in [ChasePath::L1, ChasePath::L2, ChasePath::ReadOnly] {
        out.extend(accesses_chart(data, path));
    }
    out.push(shared_chart(data));
    out.extend(throughput_charts(data));
    out.retain(|c| c.series.iter().any(|(_, p)| !p.is_empty()));
    out
}

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];
const SIZE: (u32, u32) = (1000, 620);

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &XyChart) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let Some(((x0, x1), (y0, y1))) = chart.bounds() else {
        return Ok(());
    };
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(&chart.title, (FAMILY, 26).into_font())
        .margin(16)
        .x_label_area_size(56)
        .y_label_area_size(80);
    if chart.x_log {
        let x0 = x0.max(f64::MIN_POSITIVE);
        let mut ctx = builder.build_cartesian_2d((x0..x1 * 1.05).log_scale(), y0..y1)?;
        mesh_and_series(&mut ctx, chart)
    } else {
        let mut ctx = builder.build_cartesian_2d(x0..x1, y0..y1)?;
        mesh_and_series(&mut ctx, chart)
    }
}

fn mesh_and_series<'a, DB, X>(
    ctx: &mut ChartContext<'a, DB, Cartesian2d<X, plotters::coord::types::RangedCoordf64>>,
    chart: &XyChart,
) -> DrawResult<DB>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    ctx.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .label_style((FAMILY, 17))
        .axis_desc_style((FAMILY, 18))
        .draw()?;
    for (i, (name, points)) in chart.series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let size = if chart.points_only { 2 } else { 4 };
        let drawn = ctx.draw_series(
            points
                .iter()
                .map(move |&(x, y)| Circle::new((x, y), size, colour.filled())),
        )?;
        drawn
            .label(name.as_str())
            .legend(move |(x, y)| Circle::new((x + 8, y), 5, colour.filled()));
        if !chart.points_only {
            ctx.draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(2),
            ))?;
        }
    }
    ctx.configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FAMILY, 17))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
}

/// Draws every chart into `dir` (created if needed) as SVG and PNG; returns
/// the files written.
pub fn write_all(data: &ProbeData, dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let fonts = font::ensure().map_err(PlotError::Font)?;
    std::fs::create_dir_all(dir).map_err(|source| PlotError::Dir {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    for chart in charts(data) {
        let svg = dir.join(format!("{}.svg", chart.name));
        let failed = |path: &Path, e: String| PlotError::Draw {
            path: path.to_path_buf(),
            message: e,
        };
        {
            let root = WithFont::vector(SVGBackend::new(&svg, SIZE), fonts).into_drawing_area();
            draw(&root, &chart).map_err(|e| failed(&svg, e.to_string()))?;
            root.present().map_err(|e| failed(&svg, e.to_string()))?;
        }
        written.push(svg);
        let png = dir.join(format!("{}.png", chart.name));
        {
            let root = WithFont::bitmap(BitMapBackend::new(&png, SIZE), fonts).into_drawing_area();
            draw(&root, &chart).map_err(|e| failed(&png, e.to_string()))?;
            root.present().map_err(|e| failed(&png, e.to_string()))?;
        }
        written.push(png);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{ChaseRun, SharedStrideRun, ThroughputPoint};

    /// Small synthetic measurements: an L1 that holds 16 KiB, a stride sweep
    /// at 64 KiB, shared strides and one throughput curve per block count.
    pub(crate) fn synthetic() -> ProbeData {
        let chase = |stride: u64, footprint: u64, miss_every: usize| ChaseRun {
            path: ChasePath::L1,
            stride_bytes: stride,
            footprint_bytes: footprint,
            latencies: (0..64)
                .map(|i| {
                    if miss_every > 0 && i % miss_every == 0 {
                        300
                    } else {
                        40
                    }
                })
                .collect(),
            indices: (0..64).collect(),
        };
        let mut chases: Vec<ChaseRun> = [4096, 8192, 16384, 32768, 65536]
            .iter()
            .map(|&f| chase(32, f, if f > 16384 { 4 } else { 0 }))
            .collect();
        chases.extend(
            [8, 16, 64]
                .iter()
                .map(|&s| chase(s, 65536, (128 / s) as usize)),
        );
        let throughput = [1u32, 4]
            .iter()
            .flat_map(|&blocks| {
                [32u32, 256, 1024].map(move |threads| ThroughputPoint {
                    target: ThroughputTarget::L2,
                    blocks,
                    threads,
                    coalescing: 4,
                    bytes: u64::from(blocks * threads) * 1000,
                    useful_bytes: u64::from(blocks * threads) * 500,
                    seconds: 1e-3,
                })
            })
            .collect();
        ProbeData {
            mode: "quick".into(),
            chases,
            shared_strides: [1u32, 2, 32]
                .iter()
                .map(|&s| SharedStrideRun {
                    word_bytes: 4,
                    stride_words: s,
                    cycles_per_access: 30.0 * f64::from(s.min(32)),
                })
                .collect(),
            throughput,
            ..ProbeData::default()
        }
    }

    #[test]
    fn charts_show_each_sweep() {
        let charts = charts(&synthetic());
        let names: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
        for want in [
            "chase-footprint",
            "chase-stride",
            "chase-accesses-l1",
            "shared-stride",
            "throughput-l2",
            "throughput-blocks",
        ] {
            assert!(names.contains(&want), "{want} missing from {names:?}");
        }
        let footprint = &charts[0];
        let (_, points) = &footprint.series[0];
        assert_eq!(points.len(), 5);
        // 16 KiB all hits (40 cycles), 32 KiB one miss in four.
        assert_eq!(points[2], (16.0, 40.0));
        assert!((points[3].1 - (300.0 + 3.0 * 40.0) / 4.0).abs() < 1.0);
        let stride = charts.iter().find(|c| c.name == "chase-stride").unwrap();
        assert_eq!(
            stride.series[0].1.len(),
            4,
            "strides 8, 16, 32, 64 at 64 KiB"
        );
        let per_block = charts.iter().find(|c| c.name == "throughput-l2").unwrap();
        assert_eq!(per_block.series.len(), 2);
        assert!(
            (per_block.series[1].1[2].1 - 4.096).abs() < 1e-9,
            "4 x 1024 threads x 1000 B in 1 ms"
        );
    }

    #[test]
    fn plots_are_written_as_svg_and_png() {
        let dir = tempfile::tempdir().unwrap();
        let written = write_all(&synthetic(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(written.len(), 2 * charts(&synthetic()).len());
        let svg = std::fs::read_to_string(dir.path().join("chase-footprint.svg")).unwrap();
        assert!(svg.contains("mean latency by footprint"), "{svg}");
        let png = std::fs::read(dir.path().join("shared-stride.png")).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }
}
