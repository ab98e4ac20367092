//! The probe's kernels (in progress).
