//! The experiments behind qiyi's aeroplane-chess players, kept out of the library crate: each is
//! an example (`cargo run --release -p qiyi-research-aeroplane --example NAME -- ARGS`), and
//! `README.md` says what each one found.

#![warn(missing_docs)]
