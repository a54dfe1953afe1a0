package validate

import (
	"eval752/app/answer"
	"path"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// Gate 1, results.jsonl: every result line belongs to a known question and a
// declared run, once, and the ids it retrieved exist in its atom table.

var (
	ruleResultItem = register(finding.Rule{
		Code:        "result.unknown-item",
		Severity:    finding.Error,
		Description: "A result's item_id is the id of a loaded question (eval752 id, b-2 query_id, v2 id or seed-003 qid).",
		Source:      "seed 004 .eval752.zip 包结构 (results.jsonl 逐题结果)",
		Hint:        "Fix the item_id, or load the set the results were produced on.",
		Family:      "result",
	})
	ruleResultNoItems = register(finding.Rule{
		Code:        "result.items-absent",
		Severity:    finding.Info,
		Description: "Results were loaded without any question set, so their item_ids cannot be resolved; reported once per file.",
		Source:      "seed 004 .eval752.zip 包结构",
		Hint:        "Load the dataset bundle or set files together with the results.",
		Family:      "result",
	})
	ruleResultDuplicate = register(finding.Rule{
		Code:        "result.duplicate",
		Severity:    finding.Error,
		Description: "A (run, item_id) pair appears at most once in a results file.",
		Source:      "seed 004 .eval752.zip 包结构 (results.jsonl 逐题结果)",
		Hint:        "Keep one result per run and item; a second line would be scored twice or silently replace the first.",
		Family:      "result",
	})
	ruleResultRunUnlisted = register(finding.Rule{
		Code:        "result.run-unlisted",
		Severity:    finding.Warning,
		Description: "When the bundle has run_config.json, every run in results.jsonl is described there.",
		Source:      "seed 004 .eval752.zip 包结构 (run_config.json 运行配置快照)",
		Hint:        "Add the run to run_config.json's runs so its numbers can be traced to a configuration.",
		Family:      "result",
	})
	ruleResultVerdict = register(finding.Rule{
		Code:        "result.verdict",
		Severity:    finding.Error,
		Description: "A judge_pairwise verdict reads as A, B or tie (\"Model A\", \"[[A]]\", \"A>B\", \"平局\", \"draw\"… are accepted spellings).",
		Source:      "seed 004 支持的题目类型 (judge_pairwise; verdict spelling defined by eval752)",
		Hint:        "Write \"A\", \"B\" or \"tie\"; an unreadable verdict scores as a disagreement.",
		Family:      "result",
	})
	ruleResultRankedDuplicate = register(finding.Rule{
		Code:        "result.retrieved-duplicate",
		Severity:    finding.Warning,
		Description: "A result's retrieved list names each atom once; a repeat is scored at its first rank only.",
		Source:      "SPEC §4 (ranked retrieval); trec_eval refuses duplicate docnos (reference/trec/SEMANTICS.md)",
		Hint:        "Remove the repeated id: a ranking is a list of distinct atoms.",
		Family:      "result",
	})
	ruleResultScoresOrder = register(finding.Rule{
		Code:        "result.scores-order",
		Severity:    finding.Warning,
		Description: "When every retrieved entry has a score, the scores are in descending order: eval752 ranks by score (ties by id, trec_eval's rule), so a list written out of score order is scored in score order, not as written.",
		Source:      "SPEC §4 (rankings canonicalised by score); seed 003 §6.1 (结果按降序)",
		Hint:        "Write the entries in the order of their scores (highest first), or check the scores: they decide the ranking that is scored.",
		Family:      "result",
	})
	ruleResultAtomUnknown = register(finding.Rule{
		Code:        "result.retrieved-unknown",
		Severity:    finding.Warning,
		Description: "Retrieved ids exist in the run's atom table (or the loaded atoms / chunks) when one is given.",
		Source:      "SPEC §4 (a run that reports retrieved ids carries its atom table)",
		Hint:        "Ship the run's atom table (corpus/atoms.jsonl, named by run_config runs[].atoms) with every retrieved id.",
		Family:      "result",
	})
	ruleResultNoAtomTable = register(finding.Rule{
		Code:        "result.no-atom-table",
		Severity:    finding.Warning,
		Description: "A run that retrieves ids for b-2 items comes with an atom table: without one its ids cannot be resolved to the gold regions, and its retrieval figures on b-2 are left out (not scored 0).",
		Source:      "SPEC §4 (a run carries or names its atom table; gold regions resolve to the run's atoms); seed 000 §2",
		Hint:        "Load the run's atom table (corpus/atoms.jsonl: atom_id, source_id, page / block / … , observed_at, holder) with the results.",
		Family:      "result",
	})
	ruleResultAtomTable = register(finding.Rule{
		Code:        "result.atom-table-missing",
		Severity:    finding.Warning,
		Description: "The atom table a run names in run_config.json was loaded.",
		Source:      "SPEC §4 (a run carries or names its atom table)",
		Hint:        "Add the named file to the bundle, or fix runs[].atoms in run_config.json.",
		Family:      "result",
	})
)

func (c *checker) checkResults() {
	if len(c.ds.Results) == 0 {
		return
	}
	ids := map[string]bool{}
	for _, q := range c.questionRefs() {
		id, _, _ := c.qid(q)
		ids[id] = true
	}
	bundles := map[string]*dataset.Bundle{}
	for _, b := range c.ds.Bundles {
		bundles[b.Path] = b
	}
	// Every loaded atom / chunk id, and the ids per atom-table file.
	allAtoms := map[string]bool{}
	atomsOnly := map[string]bool{} // b-2 items resolve on atoms, never on seed-003 chunks
	byFile := map[string]map[string]bool{}
	for _, a := range c.ds.Atoms {
		if !a.Typed {
			continue
		}
		allAtoms[a.V.AtomID] = true
		atomsOnly[a.V.AtomID] = true
		if byFile[c.ds.Path(a.Loc)] == nil {
			byFile[c.ds.Path(a.Loc)] = map[string]bool{}
		}
		byFile[c.ds.Path(a.Loc)][a.V.AtomID] = true
	}
	for _, ch := range c.ds.Chunks {
		if !ch.Typed {
			continue
		}
		allAtoms[ch.V.ChunkID] = true
		if byFile[c.ds.Path(ch.Loc)] == nil {
			byFile[c.ds.Path(ch.Loc)] = map[string]bool{}
		}
		byFile[c.ds.Path(ch.Loc)][ch.V.ChunkID] = true
	}
	// findTable resolves runs[].atoms ("corpus/atoms.jsonl") to a loaded file:
	// the bundle's entry first, then any loaded file whose path ends with it.
	findTable := func(bundle, name string) map[string]bool {
		name = strings.TrimPrefix(name, "./")
		if t, ok := byFile[bundle+"!"+name]; ok && bundle != "" {
			return t
		}
		for p, t := range byFile {
			_, entry := splitPath(p)
			if entry == name || strings.HasSuffix(entry, "/"+name) {
				return t
			}
		}
		return nil
	}

	b2IDs := map[string]bool{}
	for _, b := range c.ds.B2 {
		if b.Typed {
			b2IDs[b.V.QueryID] = true
		}
	}
	once := onceSet{}
	first := map[string]dataset.Loc{}
	for _, r := range c.ds.Results {
		if !r.Typed {
			continue
		}
		res := r.V
		if len(ids) == 0 {
			if once.first(ruleResultNoItems.Code, c.ds.Path(r.Loc)) {
				c.add(ruleResultNoItems.At(c.ds.Path(r.Loc), 0, "", "no question set was loaded, so item_ids in this file are not checked"))
			}
		} else if !ids[res.ItemID] {
			c.add(ruleResultItem.At(c.ds.Path(r.Loc), int(r.Line), "/item_id", "item_id %q is not the id of any loaded question", res.ItemID))
		}
		k := c.ds.Path(r.Loc) + "\x00" + res.Run + "\x00" + res.ItemID
		if f, dup := first[k]; dup {
			c.add(ruleResultDuplicate.At(c.ds.Path(r.Loc), int(r.Line), "", "run %q already has a result for item %q (first at %s)", res.Run, res.ItemID, c.loc(f)))
		} else {
			first[k] = r.Loc
		}

		if v := strings.TrimSpace(res.Verdict); v != "" && answer.Verdict(v) == "" {
			c.add(ruleResultVerdict.At(c.ds.Path(r.Loc), int(r.Line), "/verdict", "verdict %q does not read as A, B or tie", res.Verdict))
		}

		bpath, _ := splitPath(c.ds.Path(r.Loc))
		if bpath == "" {
			// a loose results.jsonl pairs with a loose run_config.json of
			// its folder (the readers keep that as a pseudo-bundle)
			bpath = path.Dir(c.ds.Path(r.Loc))
		}
		var table map[string]bool
		var named string
		if b := bundles[bpath]; b != nil && b.RunConfig != nil && b.RunConfig.Typed {
			listed := false
			for _, ri := range b.RunConfig.V.Runs {
				if ri.Name == res.Run {
					listed, named = true, ri.Atoms
					break
				}
			}
			if !listed && once.first(ruleResultRunUnlisted.Code+"\x00"+res.Run, c.ds.Path(r.Loc)) {
				c.add(ruleResultRunUnlisted.At(c.ds.Path(r.Loc), int(r.Line), "/run", "run %q is not described in %s", res.Run, c.ds.Path(b.RunConfig.Loc)))
			}
		}
		if len(res.Retrieved) == 0 {
			continue
		}
		rids := make([]string, len(res.Retrieved))
		for i, ret := range res.Retrieved {
			rids[i] = ret.ID
		}
		if i, j := firstRepeat(rids); i >= 0 {
			c.add(ruleResultRankedDuplicate.At(c.ds.Path(r.Loc), int(r.Line), jsonl.Pointer("retrieved", j), "retrieved repeats %q at position %d (first at %d); it is scored at its first rank only", rids[j], j, i))
		}
		if scores, ok := allScores(res.Retrieved); ok {
			if j := firstRise(scores); j > 0 {
				c.add(ruleResultScoresOrder.At(c.ds.Path(r.Loc), int(r.Line), jsonl.Pointer("retrieved", j, "score"), "retrieved is not in score order: %g at position %d follows %g; the list is scored in score order, so %q ranks before %q", scores[j], j, scores[j-1], rids[j], rids[j-1]))
			}
		}
		if named != "" {
			table = findTable(bpath, named)
			if table == nil {
				if once.first(ruleResultAtomTable.Code+"\x00"+res.Run, c.ds.Path(r.Loc)) {
					c.add(ruleResultAtomTable.At(c.ds.Path(r.Loc), int(r.Line), "/run", "run %q names atom table %q, which was not loaded", res.Run, named))
				}
				continue
			}
		} else if b2IDs[res.ItemID] && len(atomsOnly) > 0 {
			table = atomsOnly
		} else if !b2IDs[res.ItemID] && len(allAtoms) > 0 {
			table = allAtoms
		} else {
			if b2IDs[res.ItemID] && once.first(ruleResultNoAtomTable.Code+"\x00"+res.Run, "") {
				c.add(ruleResultNoAtomTable.At(c.ds.Path(r.Loc), int(r.Line), "/retrieved", "run %q retrieves ids for b-2 item %q, but no atom table was loaded: its b-2 retrieval figures (recall, hit, mrr, ndcg, temporal and holder correctness) are left out", res.Run, res.ItemID))
			}
			continue
		}
		bad, firstBad := 0, -1
		for i, ret := range res.Retrieved {
			if !table[ret.ID] {
				bad++
				if firstBad < 0 {
					firstBad = i
				}
			}
		}
		if bad > 0 {
			c.add(ruleResultAtomUnknown.At(c.ds.Path(r.Loc), int(r.Line), jsonl.Pointer("retrieved", firstBad),
				"%d of %d retrieved ids are not in the atom table (first: %q)", bad, len(res.Retrieved), res.Retrieved[firstBad].ID))
		}
	}
}

// allScores returns the scores of a retrieved list when every entry has
// one (otherwise the list order is the ranking and there is no order to
// check).
func allScores(rs []model.Retrieved) ([]float64, bool) {
	out := make([]float64, len(rs))
	for i, r := range rs {
		if r.Score == nil {
			return nil, false
		}
		out[i] = *r.Score
	}
	return out, len(out) > 1
}
