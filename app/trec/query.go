package trec

import (
	"fmt"
	"slices"

	"eval752/app/trecio"
)

// Relevance values given to retrieved docs that have no usable grade
// (trec_eval.h).
const (
	relNonpool   = -1      // not in the qrels
	relUnjudged  = -2      // in the qrels with a negative grade
	maxGrade     = 1 << 16 // trec_eval documents grades in -127..127; larger ones are refused, not looped over
	bogusDocno   = "ceci_nest_pas_un_docno"
	minGeoMean   = 0.00001
	infapEpsilon = 0.00001
)

// rankedDoc is one retrieved doc of one query before canonicalisation.
type rankedDoc struct {
	sim   float64
	docno string
	line  int64
}

// qrel is one judgment of one query.
type qrel struct {
	docno string
	rel   int64
	line  int64
}

// qrelsQuery is all judgments of one qrels qid.
type qrelsQuery struct {
	qid  string
	docs []qrel
}

// query is trec_eval's RES_RELS for one query: the canonical ranking turned
// into relevance values, and the counts every measure reads.
type query struct {
	rels         []int64 // relevance value at rank i+1
	numRet       int64
	numRel       int64 // qrels docs with grade >= relLevel
	numRelRet    int64
	numNonpool   int64
	numUnjudged  int64
	relLevels    []int64 // relLevels[g] = qrels docs with grade g >= 0
	numRelLevels int64   // highest grade with a doc, plus one
	relLevel     int64   // -l
	numDocsColl  int64   // -N
	relString    string  // set by relstring
}

// isRel reports whether rank i (0-based) is relevant: value >= -l.
func (q *query) isRel(i int) bool { return q.rels[i] >= q.relLevel }

// scratch is per-worker reusable memory.
type scratch struct {
	seen      map[string]uint64 // docno -> qrels index+1 (low 32) | rank+1 (high 32)
	rels      []int64
	relLevels []int64
}

func newScratch() *scratch { return &scratch{seen: make(map[string]uint64, 2048)} }

// cmpRanked is trec_eval's comp_sim_docno (trecio.CompareRanked): sim descending, then docno
// descending by strcmp (bytewise). File order never matters.
func cmpRanked(a, b rankedDoc) int { return trecio.CompareRanked(a.sim, a.docno, b.sim, b.docno) }

// evalError is a problem found while forming one query; the caller turns it
// into an *InputError naming the file.
type evalError struct {
	inQrels bool
	line    int64
	msg     string
}

// formQuery canonicalises the ranking once (sort, -M cut, duplicate check,
// relevance lookup, -J filter) exactly as form_res_rels.c does.
func formQuery(qq *qrelsQuery, docs []rankedDoc, opt *Options, sc *scratch) (*query, *evalError) {
	slices.SortFunc(docs, cmpRanked)
	n := len(docs)
	if opt.MaxDocs >= 0 && int64(n) > opt.MaxDocs {
		n = int(opt.MaxDocs)
	}
	clear(sc.seen)
	maxRel := int64(-1)
	var qErr *evalError
	for i, d := range qq.docs {
		if v, dup := sc.seen[d.docno]; dup {
			first := qq.docs[int(v&0xffffffff)-1]
			if qErr == nil || d.line < qErr.line {
				qErr = &evalError{inQrels: true, line: d.line, msg: fmt.Sprintf(
					"duplicate docno %q for query %q (first judged at line %d)", d.docno, qq.qid, first.line)}
			}
			continue
		}
		sc.seen[d.docno] = uint64(i + 1)
		if d.rel > maxRel {
			maxRel = d.rel
		}
	}
	if qErr != nil {
		return nil, qErr
	}
	if maxRel >= maxGrade {
		return nil, &evalError{inQrels: true, msg: fmt.Sprintf(
			"grade %d in query %q is too large (limit %d)", maxRel, qq.qid, maxGrade-1)}
	}
	q := &query{relLevel: opt.RelLevel, numDocsColl: opt.NumDocsInColl}
	// rel_levels: every qrels doc with grade >= 0, retrieved or not.
	sc.relLevels = sc.relLevels[:0]
	for g := int64(0); g <= maxRel; g++ {
		sc.relLevels = append(sc.relLevels, 0)
	}
	for _, d := range qq.docs {
		if d.rel >= 0 {
			sc.relLevels[d.rel]++
		}
	}
	q.relLevels = sc.relLevels
	for g, c := range q.relLevels {
		if c != 0 {
			q.numRelLevels = int64(g) + 1
			if int64(g) >= opt.RelLevel {
				q.numRel += c
			}
		}
	}
	// Relevance of each kept doc; a docno seen twice among them is an error.
	sc.rels = sc.rels[:0]
	var dupErr *evalError
	for r := 0; r < n; r++ {
		d := docs[r]
		v, ok := sc.seen[d.docno]
		if ok && v>>32 != 0 {
			first := docs[int(v>>32)-1]
			l1, l2 := first.line, d.line
			if l2 < l1 {
				l1, l2 = l2, l1
			}
			if dupErr == nil || l2 < dupErr.line {
				dupErr = &evalError{line: l2, msg: fmt.Sprintf(
					"duplicate docno %q for query %q (also at line %d); trec_eval aborts here (exit 4)", d.docno, qq.qid, l1)}
			}
			continue
		}
		rel := int64(relNonpool)
		if ok {
			g := qq.docs[int(v&0xffffffff)-1].rel
			if g < 0 {
				rel = relUnjudged
			} else {
				rel = g
			}
		}
		sc.seen[d.docno] = v | uint64(r+1)<<32
		sc.rels = append(sc.rels, rel)
	}
	if dupErr != nil {
		return nil, dupErr
	}
	if opt.JudgedOnly {
		// -J: drop unjudged docs before ranks are used; trec_eval then does
		// not count non-pool / unjudged docs at all.
		kept := sc.rels[:0]
		for _, rel := range sc.rels {
			if rel >= 0 {
				kept = append(kept, rel)
				if rel >= opt.RelLevel {
					q.numRelRet++
				}
			}
		}
		sc.rels = kept
	} else {
		for _, rel := range sc.rels {
			switch {
			case rel == relNonpool:
				q.numNonpool++
			case rel == relUnjudged:
				q.numUnjudged++
			case rel >= opt.RelLevel:
				q.numRelRet++
			}
		}
	}
	q.rels = sc.rels
	q.numRet = int64(len(sc.rels))
	return q, nil
}
