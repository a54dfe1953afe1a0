// Package stats holds the statistics every eval752 score and comparison
// rests on: means, percentile bootstrap confidence intervals over items, the
// paired bootstrap of a difference between two runs on the same items,
// McNemar's test for paired binary outcomes, win/tie/loss counts, nearest-rank
// quantiles, and the resolution (CI half-width) a set of n items affords.
//
// The functions are free functions over []float64 in the style of
// gonum/stat, which they build on. Every random draw comes from a PCG
// generator seeded from an explicit seed, so the same inputs and seed give
// bit-identical results on every platform (seed 002; SPEC §4).
//
// Why paired: two runs scored on the same items are not two independent
// samples. Hard items are hard for both runs, so the variance of the
// difference is Var(A)+Var(B)−2·Cov(A,B); a test that drops the covariance
// (an unpaired z-test of two proportions) is underpowered. The information is
// in the discordant items — "A right, B wrong" versus "A wrong, B right" —
// which is exactly what McNemar's test and the paired bootstrap use
// (Dietterich 1998; seed 002 "规模、分片与功效").
package stats
