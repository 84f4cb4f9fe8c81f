//! Helpers shared by the experiments in `examples/`.
// Each example compiles this module on its own and uses only some of it.
#![allow(dead_code)]

/// Logistic regression `P(y = 1) = sigmoid(a + b x)` of 0/1 results `y` on one feature `x`, by
/// Newton's method from `(a, b) = (0, 1)`; returns `(a, b)`.
pub fn fit_logistic<I>(points: I) -> (f64, f64)
where
    I: Iterator<Item = (f64, f64)> + Clone,
{
    let (mut a, mut b) = (0.0f64, 1.0f64);
    for _ in 0..20 {
        let (mut g0, mut g1, mut h00, mut h01, mut h11) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (x, y) in points.clone() {
            let q = 1.0 / (1.0 + (-(a + b * x)).exp());
            let w = q * (1.0 - q);
            g0 += q - y;
            g1 += (q - y) * x;
            h00 += w;
            h01 += w * x;
            h11 += w * x * x;
        }
        let det = h00 * h11 - h01 * h01;
        a -= (h11 * g0 - h01 * g1) / det;
        b -= (h00 * g1 - h01 * g0) / det;
    }
    (a, b)
}

/// `wins` of `games` as a percentage with its 95% Wilson interval: `79.25% [77.4, 81.0]`.
pub fn rate(wins: u64, games: u64) -> String {
    let [lo, hi] = qiyi_aeroplane::tournament::wilson(wins, games);
    format!(
        "{:.2}% [{:.1}, {:.1}]",
        100.0 * wins as f64 / games as f64,
        100.0 * lo,
        100.0 * hi
    )
}
