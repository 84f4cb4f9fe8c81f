//! What a lab run reports: tables (printed as Markdown, sent as JSON) and chart data.

use serde::Serialize;

/// The whole report of one `qiyi lab GAME` run.
#[derive(Clone, Debug, Serialize)]
pub struct LabReport {
    /// The game.
    pub game: String,
    /// The seed every random choice derives from.
    pub seed: u64,
    /// The command that reproduces the run.
    pub command: String,
    /// One-line facts about the run (evaluator, field, budgets).
    pub notes: Vec<String>,
    /// The tables, in print order.
    pub tables: Vec<Table>,
    /// The charts `--plot` draws.
    pub charts: Vec<Chart>,
    /// True when every "same value as minimax" check that applies passed (`None`: no check).
    pub all_agree: Option<bool>,
}

impl LabReport {
    /// An empty report for `game`.
    pub fn new(game: &str, seed: u64) -> Self {
        LabReport {
            game: game.to_string(),
            seed,
            command: String::new(),
            notes: Vec::new(),
            tables: Vec::new(),
            charts: Vec::new(),
            all_agree: None,
        }
    }

    /// The report as Markdown: the command, the notes, then every table.
    pub fn markdown(&self) -> String {
        let mut s = format!("# qiyi lab {} (seed {})\n\n", self.game, self.seed);
        s += &format!("Command: `{}`\n\n", self.command);
        for n in &self.notes {
            s += &format!("- {n}\n");
        }
        if !self.notes.is_empty() {
            s.push('\n');
        }
        for t in &self.tables {
            s += &t.markdown();
            s.push('\n');
        }
        s
    }
}

/// A table with a title.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    /// What the table shows.
    pub title: String,
    /// Column headers.
    pub columns: Vec<String>,
    /// Rows of cells, already formatted.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table.
    pub fn new(title: &str, columns: &[&str]) -> Self {
        Table {
            title: title.to_string(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// The table in GitHub Markdown, numbers right-aligned.
    pub fn markdown(&self) -> String {
        let mut s = format!("## {}\n\n", self.title);
        s += &format!("| {} |\n", self.columns.join(" | "));
        let align: Vec<&str> = (0..self.columns.len())
            .map(|i| {
                let numeric = !self.rows.is_empty()
                    && self
                        .rows
                        .iter()
                        .all(|r| r.get(i).map(|c| numeric_cell(c)).unwrap_or(true));
                if numeric {
                    "---:"
                } else {
                    "---"
                }
            })
            .collect();
        s += &format!("|{}|\n", align.join("|"));
        for r in &self.rows {
            s += &format!("| {} |\n", r.join(" | "));
        }
        s
    }
}

/// Whether a cell reads as a number (right-aligned).
fn numeric_cell(c: &str) -> bool {
    c.chars().next().is_some_and(|ch| ch.is_ascii_digit()) || c.starts_with('-') && c.len() > 1
}

/// A chart to draw (see `plot.rs`).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Chart {
    /// Lines over an integer x axis (depth), optionally on a log y scale.
    Lines {
        /// File stem of the SVG.
        file: String,
        /// Chart title.
        title: String,
        /// X axis label with unit.
        x_label: String,
        /// Y axis label with unit.
        y_label: String,
        /// Log scale on y.
        log_y: bool,
        /// Named series of (x, y) points.
        series: Vec<Series>,
    },
    /// Grouped bars: one group per category on the x axis, one bar per series in each group,
    /// optionally on a log y scale.
    Bars {
        /// File stem of the SVG.
        file: String,
        /// Chart title.
        title: String,
        /// Y axis label with unit.
        y_label: String,
        /// Log scale on y.
        log_y: bool,
        /// The categories along the x axis.
        groups: Vec<String>,
        /// (legend label, one value per group); a missing value (gave up) leaves the slot empty.
        series: Vec<(String, Vec<Option<f64>>)>,
    },
    /// Point estimates with 95% intervals per category, with a reference line.
    Intervals {
        /// File stem of the SVG.
        file: String,
        /// Chart title.
        title: String,
        /// Y axis label with unit.
        y_label: String,
        /// (category, estimate, low, high).
        points: Vec<(String, f64, f64, f64)>,
        /// A horizontal reference (the fair share), labelled.
        reference: Option<(String, f64)>,
    },
}

/// One named line of a [`Chart::Lines`].
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points.
    pub points: Vec<(f64, f64)>,
}

/// Formats an integer with thousands separators.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Milliseconds with a precision that suits the size.
pub fn ms(seconds: f64) -> String {
    let m = seconds * 1e3;
    if m >= 100.0 {
        format!("{m:.0}")
    } else if m >= 1.0 {
        format!("{m:.1}")
    } else {
        format!("{m:.3}")
    }
}

/// A fraction as a percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn markdown_right_aligns_numeric_columns() {
        let mut t = Table::new("t", &["name", "nodes"]);
        t.push(vec!["a".into(), "1,000".into()]);
        let md = t.markdown();
        assert!(md.contains("|---|---:|"), "{md}");
    }
}
