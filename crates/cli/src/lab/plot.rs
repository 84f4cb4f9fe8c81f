//! SVG charts of a lab report, drawn with `plotters`: lines over depth (nodes, branching factor),
//! horizontal grouped bars (times, nodes) and win rates with 95% error bars. Every chart has a
//! title, axis labels with units and a legend.

use super::report::{Chart, LabReport, Series};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Distinct colours for up to ten series.
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing a chart: {e}")
}

/// A number for an axis: 1.5k, 2M, 0.25.
fn compact(v: f64) -> String {
    let a = v.abs();
    let (x, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let digits = format!("{x:.3}");
    let digits = digits.trim_end_matches('0').trim_end_matches('.');
    format!("{digits}{suffix}")
}

/// Writes every chart of `report` as `DIR/<file>.svg`; returns the paths.
pub fn write_all(report: &LabReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let mut out = Vec::new();
    for chart in &report.charts {
        let file = match chart {
            Chart::Lines { file, .. }
            | Chart::Bars { file, .. }
            | Chart::Intervals { file, .. } => file,
        };
        let path = dir.join(format!("{file}.svg"));
        draw(chart, &path)?;
        out.push(path);
    }
    Ok(out)
}

fn draw(chart: &Chart, path: &Path) -> anyhow::Result<()> {
    match chart {
        Chart::Lines {
            title,
            x_label,
            y_label,
            log_y,
            series,
            ..
        } => {
            let root = SVGBackend::new(path, (960, 600)).into_drawing_area();
            lines(&root, title, x_label, y_label, *log_y, series)?;
            root.present().map_err(err)
        }
        Chart::Bars {
            title,
            y_label,
            log_y,
            groups,
            series,
            ..
        } => {
            let rows = groups.len() * series.len().max(1);
            let height = (140 + 26 * rows + 14 * groups.len()).max(320) as u32;
            let root = SVGBackend::new(path, (960, height)).into_drawing_area();
            bars(&root, title, y_label, *log_y, groups, series)?;
            root.present().map_err(err)
        }
        Chart::Intervals {
            title,
            y_label,
            points,
            reference,
            ..
        } => {
            let height = (200 + 46 * points.len()).max(320) as u32;
            let root = SVGBackend::new(path, (960, height)).into_drawing_area();
            intervals(&root, title, y_label, points, reference.as_ref())?;
            root.present().map_err(err)
        }
    }
}

fn lines(
    root: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    log_y: bool,
    series: &[Series],
) -> anyhow::Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let pts = series.iter().flat_map(|s| s.points.iter());
    let x_max = pts.clone().map(|p| p.0 as i32).max().unwrap_or(1).max(2);
    let x_min = pts
        .clone()
        .map(|p| p.0 as i32)
        .min()
        .unwrap_or(1)
        .min(x_max - 1);
    let y_max = pts.clone().map(|p| p.1).fold(f64::MIN, f64::max).max(1e-9);
    let y_min = pts.map(|p| p.1).fold(f64::MAX, f64::min);
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(title, ("sans-serif", 22))
        .margin(18)
        .x_label_area_size(50)
        .y_label_area_size(90);
    let x_range = x_min..x_max;
    macro_rules! finish {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_desc(y_label)
                .x_labels((x_max - x_min + 1) as usize)
                .y_label_formatter(&|v| compact(*v))
                .axis_desc_style(("sans-serif", 16))
                .draw()
                .map_err(err)?;
            for (i, s) in series.iter().enumerate() {
                let c = colour(i);
                let points: Vec<(i32, f64)> =
                    s.points.iter().map(|&(x, y)| (x as i32, y)).collect();
                chart
                    .draw_series(LineSeries::new(points.clone(), c.stroke_width(2)))
                    .map_err(err)?
                    .label(s.name.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 22, y)], c.stroke_width(3))
                    });
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 3, c.filled())))
                    .map_err(err)?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 14))
                .draw()
                .map_err(err)?;
        }};
    }
    if log_y {
        let lo = (y_min.max(1e-9) / 2.0).max(1e-9);
        let chart = builder
            .build_cartesian_2d(x_range, (lo..y_max * 3.0).log_scale())
            .map_err(err)?;
        finish!(chart);
    } else {
        let chart = builder
            .build_cartesian_2d(x_range, 0.0..y_max * 1.1)
            .map_err(err)?;
        finish!(chart);
    }
    Ok(())
}

/// Horizontal grouped bars: one band per group (top to bottom), one bar per series.
fn bars(
    root: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    value_label: &str,
    log: bool,
    groups: &[String],
    series: &[(String, Vec<Option<f64>>)],
) -> anyhow::Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let n = groups.len().max(1) as f64;
    let values = series.iter().flat_map(|(_, v)| v.iter().flatten().copied());
    let v_max = values.clone().fold(f64::MIN, f64::max).max(1e-9);
    let v_min = values.fold(f64::MAX, f64::min).min(v_max);
    let label_width = groups
        .iter()
        .map(|g| g.chars().count())
        .max()
        .unwrap_or(8)
        .clamp(8, 40) as u32
        * 8
        + 20;
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(title, ("sans-serif", 22))
        .margin(18)
        .x_label_area_size(50)
        .y_label_area_size(label_width);
    let band = 0.8 / series.len().max(1) as f64;
    // Group i is drawn at y = n - 1 - i, so the first group is at the top.
    let y_of = |i: usize| n - 1.0 - i as f64;
    let group_label = |v: &f64| -> String {
        let i = (n - 1.0 - v).round();
        if (v - v.round()).abs() < 1e-6 && i >= 0.0 && (i as usize) < groups.len() {
            groups[i as usize].clone()
        } else {
            String::new()
        }
    };
    macro_rules! finish {
        ($chart:expr, $base:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(groups.len() * 4 + 1)
                .y_label_formatter(&group_label)
                .x_label_formatter(&|v| compact(*v))
                .x_desc(value_label)
                .axis_desc_style(("sans-serif", 16))
                .draw()
                .map_err(err)?;
            for (k, (name, vals)) in series.iter().enumerate() {
                let c = colour(k);
                let rects: Vec<_> = vals
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.map(|v| (i, v)))
                    .map(|(i, v)| {
                        let top = y_of(i) + 0.4 - band * k as f64;
                        Rectangle::new([($base, top - band * 0.92), (v, top)], c.filled())
                    })
                    .collect();
                chart
                    .draw_series(rects)
                    .map_err(err)?
                    .label(name.clone())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled())
                    });
                let gave_up: Vec<_> = vals
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| v.is_none())
                    .map(|(i, _)| {
                        let mid = y_of(i) + 0.4 - band * (k as f64 + 0.5);
                        Text::new(
                            "gave up",
                            ($base, mid),
                            ("sans-serif", 12).into_font().color(&c),
                        )
                    })
                    .collect();
                chart.draw_series(gave_up).map_err(err)?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 14))
                .draw()
                .map_err(err)?;
        }};
    }
    let y_range = -0.5..n - 0.5;
    if log {
        let lo = (v_min / 3.0).max(1e-6);
        let chart = builder
            .build_cartesian_2d((lo..v_max * 3.0).log_scale(), y_range)
            .map_err(err)?;
        finish!(chart, lo);
    } else {
        let chart = builder
            .build_cartesian_2d(0.0..v_max * 1.1, y_range)
            .map_err(err)?;
        finish!(chart, 0.0);
    }
    Ok(())
}

/// Estimates with horizontal 95% error bars, one row per category, and a reference line.
fn intervals(
    root: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    value_label: &str,
    points: &[(String, f64, f64, f64)],
    reference: Option<&(String, f64)>,
) -> anyhow::Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let n = points.len().max(1) as f64;
    let label_width = points
        .iter()
        .map(|p| p.0.chars().count())
        .max()
        .unwrap_or(8)
        .clamp(8, 40) as u32
        * 8
        + 20;
    let y_of = |i: usize| n - 1.0 - i as f64;
    let row_label = |v: &f64| -> String {
        let i = (n - 1.0 - v).round();
        if (v - v.round()).abs() < 1e-6 && i >= 0.0 && (i as usize) < points.len() {
            points[i as usize].0.clone()
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(18)
        .x_label_area_size(50)
        .y_label_area_size(label_width)
        .build_cartesian_2d(0.0..1.0, -1.6..n - 0.4)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(points.len() * 5 + 1)
        .y_label_formatter(&row_label)
        .x_desc(value_label)
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(err)?;
    let blue = colour(0);
    chart
        .draw_series(points.iter().enumerate().map(|(i, p)| {
            ErrorBar::new_horizontal(y_of(i), p.2, p.1, p.3, blue.stroke_width(2), 12)
        }))
        .map_err(err)?
        .label("win rate with 95% interval")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], blue.stroke_width(2)));
    chart
        .draw_series(
            points
                .iter()
                .enumerate()
                .map(|(i, p)| Circle::new((p.1, y_of(i)), 5, blue.filled())),
        )
        .map_err(err)?;
    chart
        .draw_series(points.iter().enumerate().map(|(i, p)| {
            Text::new(
                format!("{:.1}%", 100.0 * p.1),
                (p.3 + 0.01, y_of(i) + 0.18),
                ("sans-serif", 13),
            )
        }))
        .map_err(err)?;
    if let Some((name, x)) = reference {
        let red = colour(3);
        chart
            .draw_series(LineSeries::new(
                vec![(*x, -1.6), (*x, n - 0.4)],
                red.stroke_width(2),
            ))
            .map_err(err)?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], red.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_numbers() {
        assert_eq!(compact(1500.0), "1.5k");
        assert_eq!(compact(2_000_000.0), "2M");
        assert_eq!(compact(3.0), "3");
        assert_eq!(compact(0.25), "0.25");
    }
}
