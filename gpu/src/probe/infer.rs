//! Inference of cache parameters from latency series (in progress).
