//! Single-agent search (being written).
