// Package trec is a trec_eval-compatible evaluation engine: it reads TREC
// qrels ("qid iter docno rel") and runs ("qid iter docno rank score tag")
// and computes trec_eval v10.0's measures with the same numbers, the same
// query set and order, the same averaging and the same output lines.
//
// Why a re-implementation: eval752 runs in the browser (WebAssembly) as well
// as on the command line, and its reports must agree with the tool the
// field trusts. Every rule here was checked against trec_eval's source and
// against the reference outputs in testdata/reference (SEMANTICS.md):
//
//   - rank and iter are ignored; a ranking is canonicalised once — score
//     (a double, parsed like atof) descending, ties by docno descending
//     with strcmp — then cut by -M, then checked for duplicate docnos;
//   - queries are the qrels qids in strcmp order; run-only qids are
//     ignored; a qrels qid missing from the run is an error unless -c,
//     which scores it 0 and averages over all qrels qids;
//   - -l sets the relevance threshold (ndcg_cut ignores it), -J drops
//     unjudged docs;
//   - trec_eval's quirks are kept on purpose: v10's lround recall cutoffs
//     in iprec_at_recall/11pt_avg, the integer-truncating gain sort of
//     ndcg/ndcg_rel/Rndcg/G, P_k's fixed denominator k.
//
// Where trec_eval aborts with a partial output (duplicate docs, a missing
// query) this package returns an *InputError naming the file and line.
//
// Entry points: EvaluateFiles streams a run file of any size (blocks read
// ahead, one group of lines per query handed to a worker per core, an
// ungrouped run detected and re-read in memory); EvaluateBytes and Evaluate
// take inputs already in memory. Result.Write prints trec_eval's format.
// Measures and LookupMeasure expose the registry (name, help, parameter
// syntax, defaults), one m_<name>.go file per measure, in trec_eval's order.
package trec
