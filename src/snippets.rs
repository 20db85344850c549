//! Copy as curl / Python / TypeScript (in progress).
