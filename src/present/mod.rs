//! How the playground presents what the core computes, as plain data tested natively: what
//! each stream event changed (`labels`), assistant markdown as safe HTML-free blocks
//! (`markdown`), and a structural comparison of one exchange in two formats (`compare`).

pub mod compare;
pub mod labels;
pub mod markdown;
