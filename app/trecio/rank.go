package trecio

import "strings"

// CompareRanked is the one rank order of eval752: trec_eval's comp_sim_docno
// (form_res_rels.c), which qsort uses to rank a query's results —
//
//	if (p1->sim > p2->sim) return -1;
//	if (p1->sim < p2->sim) return 1;
//	return strcmp(p2->docno, p1->docno);
//
// score descending, then docno descending byte-wise (strcmp compares
// unsigned bytes, as strings.Compare does). A NaN score, which trec_eval's
// comparator leaves to the sort algorithm, ranks after every number (and
// NaNs among themselves by docno), so the order is total on (score, id)
// and a sort's result never depends on the input order. -0 and +0 tie.
// metrics.Canonicalize, itemscore's TREC scorer and trec's formQuery all
// sort with it.
func CompareRanked(aScore float64, aID string, bScore float64, bID string) int {
	if an, bn := aScore != aScore, bScore != bScore; an != bn {
		if bn {
			return -1
		}
		return 1
	}
	if aScore > bScore {
		return -1
	}
	if aScore < bScore {
		return 1
	}
	return strings.Compare(bID, aID)
}
