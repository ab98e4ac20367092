//! Differential fuzzing of S-L1 (issue 22): each generated kernel
//! (`sl1-kernelgen`) built plain and in every documented mode of
//! `sl1-driver build` ([`modes`]), run on the same inputs ([`case`]); every
//! buffer must come back byte for byte the same.

pub mod case;
pub mod cpu;
