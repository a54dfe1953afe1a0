package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// Gates 2 and 3 for seed-003 RAG sets: evidence anchors resolve to a real
// span of a real document, answerability agrees with the evidence, and what
// is searchable has been approved.
//
// Conventions (seed 003 §4.3 leaves them open; fixed here): char offsets
// count Unicode code points of the document version's text, [char_start,
// char_end); page_no is 1-based; evidence_sha256 is the lowercase hex sha256
// of the span's UTF-8 bytes (a "sha256:" prefix and upper case are accepted).

var (
	ruleRAGDocsAbsent = register(finding.Rule{
		Code:        "rag.documents-absent",
		Severity:    finding.Info,
		Description: "No documents.jsonl was loaded, so evidence doc_ids and offsets are checked only for their shape; reported once per file.",
		Source:      "seed 003 §4.2 step 4 (自动检查证据是否真实存在)",
		Hint:        "Validate the questions together with documents.jsonl (and pages.jsonl) to check every anchor against its document.",
		Family:      "rag",
	})
	ruleRAGAnchorUnchecked = register(finding.Rule{
		Code:        "rag.anchor-unchecked",
		Severity:    finding.Info,
		Description: "An anchor's offsets and evidence_sha256 are checked against its document's text, char_count or pages; the documents that give none of them (seed 003 §1.3 lists no text field), or a length but no text (the hash cannot be recomputed), are named in one finding per file rather than their anchors passing silently.",
		Source:      "seed 003 §4.2 step 4 (自动检查证据是否真实存在); §4.3 (evidence_sha256)",
		Hint:        "Add the document's text (or char_count, or pages.jsonl with char offsets and text) in the controlled copy you validate, to check every span and its hash.",
		Family:      "rag",
	})
	ruleRAGDocUnknown = register(finding.Rule{
		Code:        "rag.doc-unknown",
		Severity:    finding.Error,
		Description: "An evidence anchor's doc_id is in documents.jsonl.",
		Source:      "seed 003 §4.3 (Gold 主锚点必须是稳定的源位置)",
		Hint:        "Fix doc_id, or add the document to documents.jsonl.",
		Family:      "rag",
	})
	ruleRAGVersion = register(finding.Rule{
		Code:        "rag.document-version",
		Severity:    finding.Warning,
		Description: "An anchor's document_version_id is a version listed in documents.jsonl; offsets of another version are not checked against this text.",
		Source:      "seed 003 §4.3 (doc/version/page/char offsets)",
		Hint:        "Re-anchor the evidence to the current document version, or load the version it was annotated on.",
		Family:      "rag",
	})
	ruleRAGOffsets = register(finding.Rule{
		Code:        "rag.offsets",
		Severity:    finding.Error,
		Description: "char_start and char_end come together, are ≥ 0 and char_start < char_end.",
		Source:      "seed 003 §4.3 (char offsets)",
		Hint:        "Give the half-open span [char_start, char_end) in code points of the document text.",
		Family:      "rag",
	})
	ruleRAGOutside = register(finding.Rule{
		Code:        "rag.offsets-outside",
		Severity:    finding.Error,
		Description: "An anchor's char_end is inside its document (text length in code points, char_count, or the pages' extents).",
		Source:      "seed 003 §4.3; §4.2 step 4",
		Hint:        "The offsets point past the end of the document: re-anchor against this document version.",
		Family:      "rag",
	})
	ruleRAGPage = register(finding.Rule{
		Code:        "rag.page",
		Severity:    finding.Error,
		Description: "page_no is ≥ 1 and within the document's page_count (or among its pages in pages.jsonl).",
		Source:      "seed 003 §4.2 step 4 (页码是否有效)",
		Hint:        "Use the document's physical page number, 1-based.",
		Family:      "rag",
	})
	ruleRAGPageSpan = register(finding.Rule{
		Code:        "rag.page-span",
		Severity:    finding.Warning,
		Description: "An anchor's char_start lies on its page_no according to pages.jsonl.",
		Source:      "seed 003 §4.3 (doc/version/page/char offsets)",
		Hint:        "page_no and the offsets disagree; fix whichever is wrong.",
		Family:      "rag",
	})
	ruleRAGBBox = register(finding.Rule{
		Code:        "rag.bbox",
		Severity:    finding.Error,
		Description: "An anchor's bbox is 4 non-negative numbers with x0 < x1 and y0 < y1.",
		Source:      "seed 003 §2.1, §4.3 (bbox)",
		Hint:        "Write the box as [x0, y0, x1, y1] with the top-left corner first.",
		Family:      "rag",
	})
	ruleRAGSHAFormat = register(finding.Rule{
		Code:        "rag.sha256-format",
		Severity:    finding.Error,
		Description: "A non-empty evidence_sha256 is 64 hex digits.",
		Source:      "seed 003 §4.3 (evidence_sha256)",
		Hint:        "Store the hex sha256 of the span's UTF-8 bytes, or leave it empty.",
		Family:      "rag",
	})
	ruleRAGSHA = register(finding.Rule{
		Code:        "rag.sha256-mismatch",
		Severity:    finding.Error,
		Description: "evidence_sha256 equals the sha256 of the span's UTF-8 when the text is present (the anchor's evidence_text, or the document text at [char_start, char_end)).",
		Source:      "seed 003 §4.3 (evidence hash); §4.2 step 4",
		Hint:        "The evidence changed or the offsets moved: re-anchor, then recompute the hash.",
		Family:      "rag",
	})
	ruleRAGEvidenceText = register(finding.Rule{
		Code:        "rag.evidence-text-mismatch",
		Severity:    finding.Error,
		Description: "An anchor's evidence_text equals the document text at [char_start, char_end).",
		Source:      "seed 003 §4.2 step 4 (证据是否真实存在)",
		Hint:        "Copy the span from the document verbatim, or fix the offsets.",
		Family:      "rag",
	})
	ruleRAGUnansRef = register(finding.Rule{
		Code:        "rag.unanswerable-reference",
		Severity:    finding.Error,
		Description: "answerable=false ⇒ no reference_answer.",
		Source:      "seed 003 §4.3, §4.4",
		Hint:        "Set reference_answer to null, or answerable to true.",
		Family:      "rag",
	})
	ruleRAGUnansEvidence = register(finding.Rule{
		Code:        "rag.unanswerable-evidence",
		Severity:    finding.Error,
		Description: "answerable=false ⇒ no required evidence group.",
		Source:      "seed 003 §4.3, §4.4",
		Hint:        "Drop the evidence, mark it \"required\": false, or set answerable to true.",
		Family:      "rag",
	})
	ruleRAGAnsEvidence = register(finding.Rule{
		Code:        "rag.answerable-evidence",
		Severity:    finding.Error,
		Description: "answerable=true ⇒ at least one required evidence group.",
		Source:      "seed 003 §4.3; §7 (Hit/CompleteHit need necessary evidence groups)",
		Hint:        "Anchor the evidence that supports the reference answer.",
		Family:      "rag",
	})
	ruleRAGGrade = register(finding.Rule{
		Code:        "rag.judgment-grade",
		Severity:    finding.Error,
		Description: "A judgment's grade is 0, 1, 2 or 3.",
		Source:      "seed 003 §7 (qrels 相关等级)",
		Hint:        "Use the 0–3 scale of seed 003 §7.",
		Family:      "rag",
	})
	ruleRAGQID = register(finding.Rule{
		Code:        "rag.unknown-qid",
		Severity:    finding.Error,
		Description: "The qid of a judgment or prediction is a loaded question's qid.",
		Source:      "seed 003 §6.2, §10",
		Hint:        "Fix the qid, or load the questions.jsonl the file belongs to.",
		Family:      "rag",
	})
	ruleRAGQuestionsAbsent = register(finding.Rule{
		Code:        "rag.questions-absent",
		Severity:    finding.Info,
		Description: "Judgments or predictions were loaded without questions, so their qids are not checked; reported once per file.",
		Source:      "seed 003 §10",
		Hint:        "Validate together with questions.jsonl.",
		Family:      "rag",
	})
	ruleRAGPredDuplicate = register(finding.Rule{
		Code:        "rag.prediction-duplicate",
		Severity:    finding.Error,
		Description: "A run has one prediction per qid (the scorer would keep the first and ignore the others).",
		Source:      "seed 003 §6.2 (端到端结果保存: one record per qid of a run)",
		Hint:        "Keep one line per (run_id, qid); split different runs into their own run_id or folder.",
		Family:      "rag",
	})
	ruleRAGRankedDuplicate = register(finding.Rule{
		Code:        "rag.ranked-duplicate",
		Severity:    finding.Warning,
		Description: "A ranked list (retrieved_chunk_ids, reranked_chunk_ids) names each chunk once; a repeat is scored at its first rank only.",
		Source:      "seed 003 §6.2; trec_eval refuses duplicate docnos (reference/trec/SEMANTICS.md)",
		Hint:        "Remove the repeated id: a ranking is a list of distinct chunks.",
		Family:      "rag",
	})
	ruleRAGScoresLength = register(finding.Rule{
		Code:        "rag.scores-length",
		Severity:    finding.Warning,
		Description: "vector_scores / rerank_scores, when given, have one score per id of retrieved_chunk_ids / reranked_chunk_ids.",
		Source:      "seed 003 §6.2 (retrieved_chunk_ids with vector_scores, reranked_chunk_ids with rerank_scores)",
		Hint:        "Write one score per id, in the same order; without them the list order alone is the ranking.",
		Family:      "rag",
	})
	ruleRAGScoresOrder = register(finding.Rule{
		Code:        "rag.scores-order",
		Severity:    finding.Warning,
		Description: "A ranked list's scores are finite and in descending order, as seed 003 asserts of a rerank response; eval752 ranks by score (ties by id), so a list out of score order is scored in score order, not as written.",
		Source:      "seed 003 §6.1 (分数为有限数值且结果按降序); SPEC §4 (rankings canonicalised by score, trec_eval's rule)",
		Hint:        "Write the ids in the order of their scores (highest first), or check the scores: they decide the ranking that is scored.",
		Family:      "rag",
	})
	ruleRAGChunk = register(finding.Rule{
		Code:        "rag.unknown-chunk",
		Severity:    finding.Warning,
		Description: "Chunk ids of a prediction (retrieved, reranked, cited) exist in the loaded chunks.jsonl.",
		Source:      "seed 003 §6.2 (引用编号必须由后端映射到真实切片)",
		Hint:        "Load the run's chunks.jsonl, or fix the ids.",
		Family:      "rag",
	})
	ruleRAGChunksAbsent = register(finding.Rule{
		Code:        "rag.chunks-absent",
		Severity:    finding.Info,
		Description: "Predictions were loaded without chunks.jsonl, so their chunk ids are not checked; reported once per file.",
		Source:      "seed 003 §6.2",
		Hint:        "Validate together with the run's chunks.jsonl.",
		Family:      "rag",
	})
	ruleRAGSearchable = register(finding.Rule{
		Code:        "rag.searchable-unapproved",
		Severity:    finding.Error,
		Description: "A document, or a chunk of a document, whose review_state is not CLOUD_APPROVED is not searchable.",
		Source:      "seed 003 §1.2 (在此之前严禁向量化…或激活检索)",
		Hint:        "Set searchable to false until the document is CLOUD_APPROVED.",
		Family:      "rag",
	})
	ruleRAGRetrievedUnapproved = register(finding.Rule{
		Code:        "rag.retrieved-unapproved",
		Severity:    finding.Error,
		Description: "A run retrieves (or cites) no chunk of a document that is not approved — review_state not CLOUD_APPROVED, no review_state at all (unknown → deny), or a void approval (rag.approval-void): such a document must not be searchable, so its chunk in a ranking means the index leaked it.",
		Source:      "seed 003 §1.2 (在此之前严禁向量化…或激活检索)",
		Hint:        "Remove the document from the index until it is CLOUD_APPROVED, and re-run; the figures of this run rest on a corpus it should not have searched.",
		Family:      "rag",
	})
	ruleRAGQrelsGrade = register(finding.Rule{
		Code:        "rag.qrels-grade",
		Severity:    finding.Error,
		Description: "A run-specific qrels.tsv that grades seed-003 questions uses the 0–3 scale of seed 003 §7 (a grade above 3 would weigh more than a required evidence in nDCG).",
		Source:      "seed 003 §7 (qrels 相关等级), §10 (qrels.tsv)",
		Hint:        "Map the grades to 0–3 (3 answers the question, 2 supports a key point, 1 background, 0 not relevant).",
		Family:      "rag",
	})
	ruleRAGQrelsQID = register(finding.Rule{
		Code:        "rag.qrels-qid",
		Severity:    finding.Warning,
		Description: "Every qid of a qrels.tsv that grades seed-003 questions is one of the loaded questions (a typo makes a separate TREC query instead).",
		Source:      "seed 003 §10 (qrels.tsv: qid 0 chunk_id relevance_grade)",
		Hint:        "Fix the qid, or load the questions it belongs to; otherwise it is scored as a TREC query of its own.",
		Family:      "rag",
	})
	ruleRAGConfigUnfrozen = register(finding.Rule{
		Code:        "rag.config-unfrozen",
		Severity:    finding.Warning,
		Description: "A run's config.yaml records every key seed 003 §10 says it must at least freeze, and no hash, commit or digest among them is blank (`unknown` is accepted where the value cannot be known; null is accepted for other keys: not applicable).",
		Source:      "seed 003 §10 (config.yaml 至少冻结; 不暴露 resolved revision 时必须写 unknown)",
		Hint:        "Add the listed keys (write unknown where the provider does not expose the value, null where the setting does not apply) so that the run can be reproduced.",
		Family:      "rag",
	})
	ruleRAGErrorCode = register(finding.Rule{
		Code:        "rag.error-code",
		Severity:    finding.Error,
		Description: "Every code of a run's errors.jsonl is one of seed 003 §9's taxonomy (RETRIEVAL_MISS, GEN_HALLUCINATION, …; REFUSAL_OVER / REFUSAL_UNDER and SYSTEM_TIMEOUT / SYSTEM_RATE_LIMIT written as two codes each).",
		Source:      "seed 003 §9 (错误分类)",
		Hint:        "Use a code of the taxonomy (docs/metrics.md, Error attribution); a new kind of failure needs a new code in the protocol first.",
		Family:      "rag",
	})
	ruleRAGErrorQID = register(finding.Rule{
		Code:        "rag.error-qid",
		Severity:    finding.Error,
		Description: "Every qid of a run's errors.jsonl is one of the loaded questions.",
		Source:      "seed 003 §9 (错误记录包含 qid)",
		Hint:        "Fix the qid, or load the questions file it belongs to.",
		Family:      "rag",
	})
	ruleRAGErrorFields = register(finding.Rule{
		Code:        "rag.error-fields",
		Severity:    finding.Warning,
		Description: "An errors.jsonl record holds what seed 003 §9 says an error record contains: expected, actual, the retrieved list, the answer, root cause, severity and fix suggestion (the run configuration is the config.yaml beside it, or a config field).",
		Source:      "seed 003 §9 (错误记录包含 qid、运行配置、期望、实际、召回/重排列表、回答、引用、根因、严重性和修复建议)",
		Hint:        "Fill in the listed fields, so a reader can check the attribution without rerunning the system.",
		Family:      "rag",
	})
	ruleRAGGradeFacts = register(finding.Rule{
		Code:        "rag.grade-facts",
		Severity:    finding.Error,
		Description: "A human grade's supported atomic facts are at most its total facts (faithfulness = supported / total ≤ 1).",
		Source:      "seed 003 §7.2, §7.5 (忠实度：可被证据支持的原子事实声明 / 全部事实声明)",
		Hint:        "Recount the answer's atomic facts; facts_supported counts a subset of facts_total.",
		Family:      "rag",
	})
	ruleRAGGradeQID = register(finding.Rule{
		Code:        "rag.grade-qid",
		Severity:    finding.Warning,
		Description: "Every qid of a human-grades file is one of the loaded questions (a typo grades nothing).",
		Source:      "seed 003 §7 (生成评分按冻结规约执行)",
		Hint:        "Fix the qid, or load the questions it belongs to.",
		Family:      "rag",
	})
	ruleRAGConfigHash = register(finding.Rule{
		Code:        "rag.config-hash",
		Severity:    finding.Warning,
		Description: "A sha256 recorded in config.yaml (corpus_manifest_sha256, judgment_set_sha256, qrels_sha256, dataset_sha256) equals the sha256 of the loaded file it names.",
		Source:      "seed 003 §10 (config.yaml 至少冻结); §4.5",
		Hint:        "The run was made on other files than the ones loaded: load the frozen files, or re-run and record the new hash.",
		Family:      "rag",
	})
)

// anchor is the common view of a gold evidence group and a judgment.
type anchor struct {
	DocID, Version string
	PageNo         *int
	CharStart      *int
	CharEnd        *int
	BBox           []float64
	SHA            string
	Text           *string
}

// ragIndex holds the documents and pages an anchor is checked against.
type ragIndex struct {
	// unchecked records, per file, the documents whose anchors could not
	// be checked: no length known (spans) or no text (evidence_sha256)
	unchecked map[string]*uncheckedDocs
	docs      map[string][]*dataset.Rec[model.RAGDocument]
	pages     map[string][]*dataset.Rec[model.RAGPage] // by doc_id
	runes     map[*model.RAGDocument][]rune
	haveDocs  bool
}

func (c *checker) checkRAG() {
	ds := c.ds
	ix := &ragIndex{
		unchecked: map[string]*uncheckedDocs{},
		docs:      map[string][]*dataset.Rec[model.RAGDocument]{},
		pages:     map[string][]*dataset.Rec[model.RAGPage]{},
		runes:     map[*model.RAGDocument][]rune{},
		haveDocs:  c.has(model.FormatRAGDocument) || len(ds.Documents) > 0,
	}
	for i := range ds.Documents {
		if d := &ds.Documents[i]; d.Typed {
			ix.docs[d.V.DocID] = append(ix.docs[d.V.DocID], d)
		}
	}
	for i := range ds.Pages {
		if p := &ds.Pages[i]; p.Typed {
			ix.pages[p.V.DocID] = append(ix.pages[p.V.DocID], p)
		}
	}
	once := onceSet{}
	qids := map[string]bool{}
	for _, r := range ds.RAG {
		if r.Typed {
			qids[r.V.QID] = true
			continue
		}
		// a question that could not be read is reported where it stands;
		// its qid is still known, so predictions and judgments naming it
		// are not a second defect
		if m, _ := r.Raw.(map[string]any); m != nil {
			if id, ok := m["qid"].(string); ok {
				qids[id] = true
			}
		}
	}
	haveQuestions := c.has(model.FormatRAGQuestion) || len(ds.RAG) > 0

	for _, r := range ds.RAG {
		if !r.Typed {
			continue
		}
		q := r.V
		required := 0
		for i, g := range q.GoldEvidenceGroups {
			base := jsonl.Pointer("gold_evidence_groups", i)
			isReq := g.Required == nil || *g.Required
			if isReq {
				required++
				if !q.Answerable {
					c.add(ruleRAGUnansEvidence.At(c.ds.Path(r.Loc), int(r.Line), base, "unanswerable question has a required evidence group (doc %q)", g.DocID))
				}
			}
			c.checkAnchor(ix, once, r.Loc, base, anchor{g.DocID, g.DocumentVersionID, g.PageNo, g.CharStart, g.CharEnd, g.BBox, g.EvidenceSHA256, g.EvidenceText})
		}
		if q.Answerable && required == 0 {
			c.add(ruleRAGAnsEvidence.At(c.ds.Path(r.Loc), int(r.Line), "/gold_evidence_groups", "answerable question has no required evidence group"))
		}
		if !q.Answerable && q.ReferenceAnswer != nil && strings.TrimSpace(*q.ReferenceAnswer) != "" {
			c.add(ruleRAGUnansRef.At(c.ds.Path(r.Loc), int(r.Line), "/reference_answer", "unanswerable question has a reference_answer; it must be null"))
		}
	}

	for _, r := range ds.Judgments {
		if !r.Typed {
			continue
		}
		j := r.V
		if j.Grade < 0 || j.Grade > 3 {
			c.add(ruleRAGGrade.At(c.ds.Path(r.Loc), int(r.Line), "/grade", "grade %d is outside 0–3", j.Grade))
		}
		c.checkQID(once, haveQuestions, qids, r.Loc, j.QID)
		c.checkAnchor(ix, once, r.Loc, "", anchor{j.DocID, j.DocumentVersionID, j.PageNo, j.CharStart, j.CharEnd, j.BBox, j.EvidenceSHA256, nil})
	}

	c.reportUnchecked(ix)
	c.checkChunks(ix)
	c.checkPredictions(once, haveQuestions, qids)
	c.checkRunQrels(qids)
	c.checkSearchable(ix)
	c.checkRetrievedApproved(ix)
	c.checkApprovals()
	c.checkEvidenceApproved(ix)
	c.checkConfigHashes()
	c.checkConfigFrozen()
	c.checkErrorRecords()
	c.checkGrades()
}

// checkRunQrels checks the qrels files that grade seed-003 questions (at
// least one of their qids is a question's): seed 003's grades and qids.
func (c *checker) checkRunQrels(qids map[string]bool) {
	if len(qids) == 0 {
		return
	}
	for _, qf := range c.ds.Qrels {
		isRAG := false
		for _, q := range qf.Judgments {
			if qids[q.QID] {
				isRAG = true
				break
			}
		}
		if !isRAG {
			continue
		}
		unknown := map[string]bool{}
		for _, q := range qf.Judgments {
			if q.Grade < 0 || q.Grade > 3 {
				c.add(ruleRAGQrelsGrade.At(qf.Path, q.Line, "", "grade %d of chunk %q (qid %q) is outside seed 003's 0–3", q.Grade, q.DocNo, q.QID))
			}
			if !qids[q.QID] && !unknown[q.QID] {
				unknown[q.QID] = true
				c.add(ruleRAGQrelsQID.At(qf.Path, q.Line, "", "qid %q is not a loaded question, though this file grades seed-003 questions; it is scored as a TREC query of its own", q.QID))
			}
		}
	}
}

func (c *checker) checkQID(once onceSet, haveQuestions bool, qids map[string]bool, l dataset.Loc, qid string) {
	if !haveQuestions {
		if once.first(ruleRAGQuestionsAbsent.Code, c.ds.Path(l)) {
			c.add(ruleRAGQuestionsAbsent.At(c.ds.Path(l), 0, "", "no questions were loaded, so the qids of this file are not checked"))
		}
		return
	}
	if !qids[qid] {
		c.add(ruleRAGQID.At(c.ds.Path(l), int(l.Line), "/qid", "qid %q is not a loaded question", qid))
	}
}

// checkAnchor checks one anchor's shape, then resolves it to its document.
func (c *checker) checkAnchor(ix *ragIndex, once onceSet, l dataset.Loc, base string, a anchor) {
	at := func(rule *finding.Rule, p string, format string, args ...any) {
		c.add(rule.At(c.ds.Path(l), int(l.Line), base+p, format, args...))
	}
	spanOK := false
	switch {
	case a.CharStart == nil && a.CharEnd == nil:
	case a.CharStart == nil:
		at(ruleRAGOffsets, "/char_end", "char_end given without char_start")
	case a.CharEnd == nil:
		at(ruleRAGOffsets, "/char_start", "char_start given without char_end")
	case *a.CharStart < 0:
		at(ruleRAGOffsets, "/char_start", "char_start %d is negative", *a.CharStart)
	case *a.CharStart >= *a.CharEnd:
		at(ruleRAGOffsets, "/char_end", "span [%d, %d) is empty or reversed: need char_start < char_end", *a.CharStart, *a.CharEnd)
	default:
		spanOK = true
	}
	if a.PageNo != nil && *a.PageNo < 1 {
		at(ruleRAGPage, "/page_no", "page_no %d is not ≥ 1", *a.PageNo)
	}
	if a.BBox != nil {
		if len(a.BBox) != 4 {
			at(ruleRAGBBox, "/bbox", "bbox must be 4 numbers [x0, y0, x1, y1], has %d", len(a.BBox))
		} else if msg := bboxProblem(a.BBox); msg != "" {
			at(ruleRAGBBox, "/bbox", "%s", msg)
		}
	}
	sha := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(a.SHA), "sha256:"))
	shaOK := false
	if a.SHA != "" {
		if len(sha) != 64 || !isHex(sha) {
			at(ruleRAGSHAFormat, "/evidence_sha256", "evidence_sha256 %q is not 64 hex digits", a.SHA)
		} else {
			shaOK = true
		}
	}
	if shaOK && a.Text != nil {
		if got := sha256Hex(*a.Text); got != sha {
			at(ruleRAGSHA, "/evidence_sha256", "evidence_sha256 %s does not match evidence_text, whose sha256 is %s", sha, got)
		}
	}

	if !ix.haveDocs {
		if once.first(ruleRAGDocsAbsent.Code, c.ds.Path(l)) {
			c.add(ruleRAGDocsAbsent.At(c.ds.Path(l), 0, "", "no documents.jsonl was loaded, so doc_ids and offsets in this file are checked only for their shape"))
		}
		return
	}
	cands := ix.docs[a.DocID]
	if len(cands) == 0 {
		at(ruleRAGDocUnknown, "/doc_id", "doc_id %q is not in documents.jsonl", a.DocID)
		return
	}
	doc := cands[0]
	if a.Version != "" {
		var match *dataset.Rec[model.RAGDocument]
		var known []string
		for _, d := range cands {
			if d.V.DocumentVersionID == a.Version {
				match = d
			}
			if d.V.DocumentVersionID != "" {
				known = append(known, d.V.DocumentVersionID)
			}
		}
		if match == nil && len(known) > 0 {
			at(ruleRAGVersion, "/document_version_id", "document %q has no version %q in documents.jsonl (it has %s); offsets are not checked", a.DocID, a.Version, listSome(known))
			return
		}
		if match != nil {
			doc = match
		}
	}
	d := &doc.V
	pages := ix.pages[a.DocID]

	if a.PageNo != nil && *a.PageNo >= 1 {
		switch {
		case d.PageCount != nil:
			if *a.PageNo > *d.PageCount {
				at(ruleRAGPage, "/page_no", "page_no %d is past the end of %s (%d pages)", *a.PageNo, a.DocID, *d.PageCount)
			}
		case len(pages) > 0:
			if findPage(pages, *a.PageNo) == nil {
				at(ruleRAGPage, "/page_no", "page_no %d of %s is not in pages.jsonl", *a.PageNo, a.DocID)
			}
		}
	}
	if !spanOK {
		return
	}
	cs, ce := *a.CharStart, *a.CharEnd

	// The document's length in code points: its text, its char_count, or
	// the end of its last page.
	length, haveLen := 0, false
	var text []rune
	switch {
	case d.Text != nil:
		text = ix.docRunes(d)
		length, haveLen = len(text), true
	case d.CharCount != nil:
		length, haveLen = *d.CharCount, true
	default:
		for _, p := range pages {
			if p.V.CharEnd != nil && *p.V.CharEnd > length {
				length, haveLen = *p.V.CharEnd, true
			}
		}
	}
	if haveLen && ce > length {
		at(ruleRAGOutside, "/char_end", "span [%d, %d) ends past the end of %s (%d characters)", cs, ce, a.DocID, length)
		return
	}
	if !haveLen {
		ix.noteUnchecked(c.ds.Where(l), a.DocID, false)
	}
	if a.PageNo != nil {
		if p := findPage(pages, *a.PageNo); p != nil && p.V.CharStart != nil && p.V.CharEnd != nil &&
			(cs < *p.V.CharStart || cs >= *p.V.CharEnd) {
			at(ruleRAGPageSpan, "/char_start", "char_start %d is not on page %d of %s ([%d, %d) in pages.jsonl)", cs, *a.PageNo, a.DocID, *p.V.CharStart, *p.V.CharEnd)
		}
	}

	// The span's text: from the document, else from a page that holds it.
	span, haveSpan := "", false
	if text != nil {
		span, haveSpan = string(text[cs:ce]), true
	} else {
		for _, p := range pages {
			if p.V.Text == nil || p.V.CharStart == nil {
				continue
			}
			pr := []rune(*p.V.Text)
			ps := *p.V.CharStart
			if cs >= ps && ce <= ps+len(pr) {
				span, haveSpan = string(pr[cs-ps:ce-ps]), true
				break
			}
		}
	}
	if !haveSpan {
		if haveLen && shaOK {
			ix.noteUnchecked(c.ds.Where(l), a.DocID, true) // a length (char_count) but no text: the hash cannot be recomputed
		}
		return
	}
	if a.Text != nil && *a.Text != span {
		at(ruleRAGEvidenceText, "/evidence_text", "evidence_text differs from the text of %s at [%d, %d): %q", a.DocID, cs, ce, clip(span, 80))
	}
	if shaOK {
		if got := sha256Hex(span); got != sha {
			at(ruleRAGSHA, "/evidence_sha256", "evidence_sha256 %s does not match the span [%d, %d) of %s: expected %s", sha, cs, ce, a.DocID, got)
		}
	}
}

func findPage(pages []*dataset.Rec[model.RAGPage], n int) *dataset.Rec[model.RAGPage] {
	for _, p := range pages {
		if p.V.PageNo == n {
			return p
		}
	}
	return nil
}

func (ix *ragIndex) docRunes(d *model.RAGDocument) []rune {
	if r, ok := ix.runes[d]; ok {
		return r
	}
	r := []rune(*d.Text)
	ix.runes[d] = r
	return r
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// clip shortens s to n code points for a message.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

func (c *checker) checkPredictions(once onceSet, haveQuestions bool, qids map[string]bool) {
	chunks := map[string]bool{}
	for _, ch := range c.ds.Chunks {
		if ch.Typed {
			chunks[ch.V.ChunkID] = true
		}
	}
	haveChunks := c.has(model.FormatRAGChunk) || len(c.ds.Chunks) > 0
	first := map[[2]string]dataset.Loc{}
	for _, r := range c.ds.Preds {
		if !r.Typed {
			continue
		}
		p := r.V
		c.checkQID(once, haveQuestions, qids, r.Loc, p.QID)
		if f, dup := first[[2]string{p.RunID, p.QID}]; dup {
			run := "this run"
			if p.RunID != "" {
				run = "run " + strconv.Quote(p.RunID)
			}
			c.add(ruleRAGPredDuplicate.At(c.ds.Path(r.Loc), int(r.Line), "/qid", "%s already has a prediction for qid %q (first at %s); only the first is scored", run, p.QID, c.loc(f)))
		} else {
			first[[2]string{p.RunID, p.QID}] = r.Loc
		}
		for _, l := range []struct {
			ids            []string
			scores         []float64
			name, scoreKey string
		}{
			{p.RetrievedChunkIDs, p.VectorScores, "retrieved_chunk_ids", "vector_scores"},
			{p.RerankedChunkIDs, p.RerankScores, "reranked_chunk_ids", "rerank_scores"},
		} {
			if i, j := firstRepeat(l.ids); i >= 0 {
				c.add(ruleRAGRankedDuplicate.At(c.ds.Path(r.Loc), int(r.Line), jsonl.Pointer(l.name, j), "%s repeats %q at position %d (first at %d); it is scored at its first rank only", l.name, l.ids[j], j, i))
			}
			if len(l.scores) > 0 && len(l.scores) != len(l.ids) {
				c.add(ruleRAGScoresLength.At(c.ds.Path(r.Loc), int(r.Line), "/"+l.scoreKey, "%s has %d scores for %d ids of %s; the list order is used as the ranking", l.scoreKey, len(l.scores), len(l.ids), l.name))
			} else if j := firstRise(l.scores); j > 0 {
				c.add(ruleRAGScoresOrder.At(c.ds.Path(r.Loc), int(r.Line), jsonl.Pointer(l.scoreKey, j), "%s is not descending: %g at position %d follows %g; the list is scored in score order, so %q ranks before %q", l.scoreKey, l.scores[j], j, l.scores[j-1], l.ids[j], l.ids[j-1]))
			}
		}
		refs := chunkRefs(&p)
		if len(refs) == 0 {
			continue
		}
		if !haveChunks {
			if once.first(ruleRAGChunksAbsent.Code, c.ds.Path(r.Loc)) {
				c.add(ruleRAGChunksAbsent.At(c.ds.Path(r.Loc), 0, "", "no chunks.jsonl was loaded, so the chunk ids of this file are not checked"))
			}
			continue
		}
		bad := 0
		var first chunkRef
		for _, x := range refs {
			if !chunks[x.id] {
				if bad == 0 {
					first = x
				}
				bad++
			}
		}
		if bad > 0 {
			c.add(ruleRAGChunk.At(c.ds.Path(r.Loc), int(r.Line), first.pointer, "%d of %d chunk ids are not in chunks.jsonl (first: %q)", bad, len(refs), first.id))
		}
	}
}

const cloudApproved = "CLOUD_APPROVED"

func (c *checker) checkSearchable(ix *ragIndex) {
	for _, r := range c.ds.Documents {
		if r.Typed && r.V.Searchable != nil && *r.V.Searchable && r.V.ReviewState != cloudApproved {
			c.add(ruleRAGSearchable.At(c.ds.Path(r.Loc), int(r.Line), "/searchable", "document %q is searchable but its review_state is %s, not %s", r.V.DocID, stateName(r.V.ReviewState), cloudApproved))
		}
	}
	for _, r := range c.ds.Chunks {
		if !r.Typed || r.V.Searchable == nil || !*r.V.Searchable {
			continue
		}
		cands := ix.docs[r.V.DocID]
		if len(cands) == 0 {
			continue
		}
		doc := cands[0]
		for _, d := range cands {
			if r.V.DocumentVersionID != "" && d.V.DocumentVersionID == r.V.DocumentVersionID {
				doc = d
			}
		}
		if doc.V.ReviewState != cloudApproved {
			c.add(ruleRAGSearchable.At(c.ds.Path(r.Loc), int(r.Line), "/searchable", "chunk %q is searchable but its document %q has review_state %s, not %s (%s)", r.V.ChunkID, r.V.DocID, stateName(doc.V.ReviewState), cloudApproved, c.loc(doc.Loc)))
		}
	}
}

// chunkRef is a chunk id a prediction names, and where.
type chunkRef struct {
	id, pointer string
}

// chunkRefs lists the chunk ids of a prediction: retrieved, reranked, cited.
func chunkRefs(p *model.RAGPrediction) []chunkRef {
	var refs []chunkRef
	for i, id := range p.RetrievedChunkIDs {
		refs = append(refs, chunkRef{id, jsonl.Pointer("retrieved_chunk_ids", i)})
	}
	for i, id := range p.RerankedChunkIDs {
		refs = append(refs, chunkRef{id, jsonl.Pointer("reranked_chunk_ids", i)})
	}
	for i, ct := range p.Citations {
		refs = append(refs, chunkRef{ct.ChunkID, jsonl.Pointer("citations", i, "chunk_id")})
	}
	return refs
}

// checkRetrievedApproved flags predictions that rank or cite a chunk of a
// document under review (review_state set, not CLOUD_APPROVED).
func (c *checker) checkRetrievedApproved(ix *ragIndex) {
	chunkDoc := map[string]*dataset.Rec[model.RAGDocument]{}
	for _, r := range c.ds.Chunks {
		if !r.Typed {
			continue
		}
		for _, d := range ix.docs[r.V.DocID] {
			if r.V.DocumentVersionID == "" || d.V.DocumentVersionID == r.V.DocumentVersionID {
				chunkDoc[r.V.ChunkID] = d
				break
			}
		}
	}
	if len(chunkDoc) == 0 {
		return
	}
	for _, r := range c.ds.Preds {
		if !r.Typed {
			continue
		}
		bad, first, why := 0, chunkRef{}, ""
		var doc *dataset.Rec[model.RAGDocument]
		for _, x := range chunkRefs(&r.V) {
			d := chunkDoc[x.id]
			if d == nil {
				continue
			}
			ok, w := approved(&d.V)
			if ok {
				continue
			}
			if bad == 0 {
				first, doc, why = x, d, w
			}
			bad++
		}
		if bad > 0 {
			c.add(ruleRAGRetrievedUnapproved.At(c.ds.Path(r.Loc), int(r.Line), first.pointer, "%d chunk id(s) belong to documents that are not approved (first: %q of %q, which %s; %s)",
				bad, first.id, doc.V.DocID, why, c.loc(doc.Loc)))
		}
	}
}

func stateName(s string) string {
	if s == "" {
		return "unset"
	}
	return s
}

// configHashFormats maps config.yaml's hash keys (seed 003 §10) to the
// formats of the files whose sha256 they record.
var configHashFormats = []struct {
	key     string
	formats []model.Format
}{
	{"corpus_manifest_sha256", []model.Format{model.FormatCorpusManifest, model.FormatRAGDocument}},
	{"judgment_set_sha256", []model.Format{model.FormatRAGJudgment}},
	{"qrels_sha256", []model.Format{model.FormatTRECQrels}},
	{"dataset_sha256", []model.Format{model.FormatRAGQuestion}},
}

// checkConfigHashes compares each recorded hash with the loaded files of
// its kind; a hash with no such file loaded cannot be checked and is silent.
func (c *checker) checkConfigHashes() {
	for _, r := range c.ds.Configs {
		if !r.Typed {
			continue
		}
		for _, kf := range configHashFormats {
			var v string
			var ok bool
			switch x := r.V[kf.key].(type) {
			case string:
				v, ok = x, true
			case json.Number:
				// an unquoted all-digit hash is a YAML integer; its text
				// is still the hash
				v, ok = string(x), true
			}
			want := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(v), "sha256:"))
			if !ok || want == "" || want == "unknown" {
				continue // unknown: the seed's word for a value that cannot be known
			}
			var files []string
			match := false
			for _, in := range c.ds.Inputs {
				for _, f := range kf.formats {
					if in.Format == f {
						files = append(files, in.Path)
						match = match || strings.EqualFold(in.SHA256, want)
					}
				}
			}
			if len(files) > 0 && !match {
				c.add(ruleRAGConfigHash.At(c.ds.Path(r.Loc), int(r.Line), jsonl.Pointer(kf.key), "%s %s matches none of the loaded files (%s)", kf.key, clip(want, 16), strings.Join(files, ", ")))
			}
		}
	}
}

// errorFields are the fields of seed 003 §9's error record an errors.jsonl
// line must carry (qid and code are required by the schema).
var errorFields = []string{"expected", "actual", "retrieved_chunk_ids", "answer", "root_cause", "severity", "suggested_fix"}

// checkErrorRecords checks each errors.jsonl line: a taxonomy code, a known
// qid (when questions are loaded), §9's fields.
func (c *checker) checkErrorRecords() {
	if len(c.ds.Errors) == 0 {
		return
	}
	qids := map[string]bool{}
	for _, q := range c.ds.RAG {
		if q.Typed {
			qids[q.V.QID] = true
		}
	}
	var codes []string
	for _, e := range model.ErrorTaxonomy {
		codes = append(codes, e.Code)
	}
	for _, r := range c.ds.Errors {
		if !r.Typed {
			continue
		}
		if r.V.Code != "" && !model.KnownErrorCode(r.V.Code) {
			c.add(ruleRAGErrorCode.At(c.ds.Path(r.Loc), int(r.Line), "/code", "%q is not a code of seed 003 §9's taxonomy (%s)", clip(r.V.Code, 40), strings.Join(codes, ", ")))
		}
		if len(qids) > 0 && r.V.QID != "" && !qids[r.V.QID] {
			c.add(ruleRAGErrorQID.At(c.ds.Path(r.Loc), int(r.Line), "/qid", "qid %q is not a loaded question", clip(r.V.QID, 60)))
		}
		raw, _ := r.Raw.(map[string]any)
		var missing []string
		for _, f := range errorFields {
			if _, ok := raw[f]; !ok {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 {
			c.add(ruleRAGErrorFields.At(c.ds.Path(r.Loc), int(r.Line), "", "the error record lacks %s", strings.Join(missing, ", ")))
		}
	}
}

// checkGrades checks each human-grade line: facts_supported ≤ facts_total,
// a known qid (when questions are loaded).
func (c *checker) checkGrades() {
	qids := map[string]bool{}
	for _, q := range c.ds.RAG {
		if q.Typed {
			qids[q.V.QID] = true
		}
	}
	for _, r := range c.ds.Grades {
		if !r.Typed {
			continue
		}
		g := r.V
		if g.FactsSupported != nil && g.FactsTotal != nil && *g.FactsSupported > *g.FactsTotal {
			c.add(ruleRAGGradeFacts.At(c.ds.Path(r.Loc), int(r.Line), "/facts_supported", "facts_supported %d exceeds facts_total %d", *g.FactsSupported, *g.FactsTotal))
		}
		if len(qids) > 0 && g.QID != "" && !qids[g.QID] {
			c.add(ruleRAGGradeQID.At(c.ds.Path(r.Loc), int(r.Line), "/qid", "qid %q is not a loaded question", clip(g.QID, 60)))
		}
	}
}

// FrozenConfigKeys are the keys seed 003 §10 lists under "config.yaml 至少冻结",
// in the seed's order.
var FrozenConfigKeys = []string{
	"dataset_version", "dataset_sha256", "anchored_judgments_schema_version", "judgment_set_version",
	"judgment_set_sha256", "corpus_manifest_sha256", "git_commit", "docker_image_digest",
	"database_schema_version", "parser_version", "parser_config_hash", "anchor_resolver_version",
	"anchor_resolution_sha256", "qrels_sha256", "ocr_model", "chunk_size", "chunk_overlap",
	"chunk_profile_hash", "embedding_model", "embedding_dimension", "embedding_index_namespace",
	"embedding_api_mode", "embedding_profile_hash", "embedding_endpoint_region",
	"embedding_endpoint_identity_hash", "embedding_requested_revision", "embedding_resolved_revision",
	"embedding_cache_epoch", "vector_distance", "retrieval_mode", "retrieval_top_k", "hnsw_ef_search",
	"hnsw_iterative_scan", "ann_overfetch_k", "lexical_analyzer_version", "hybrid_fusion",
	"hybrid_dense_weight", "hybrid_lexical_weight", "rrf_k", "rerank_model", "rerank_api_mode",
	"rerank_endpoint_identity_hash", "rerank_resolved_revision", "rerank_cache_epoch", "rerank_top_n",
	"context_top_n", "max_context_tokens", "rerank_instruct_hash", "generator_model",
	"generator_api_mode", "generator_endpoint_identity_hash", "generator_resolved_revision",
	"generator_cache_epoch", "provider_capability_fingerprint", "prompt_hash", "enable_thinking",
	"enable_search", "temperature", "top_p", "max_output_tokens", "random_seed",
}

// identityKey reports whether a frozen key records an identity every run
// has (a hash, a commit, a digest) that a blank value leaves unfrozen; the
// other keys may be null (the setting does not apply: no reranker, no
// hybrid fusion), as the seed itself writes hybrid_dense_weight: null.
func identityKey(k string) bool {
	return slices.Contains(identityKeys, k)
}

// identityKeys are the frozen keys that apply to every run (the data, the
// truth set, the code and the prompt); the embedding, rerank and generator
// endpoint hashes may be null for a run without that stage.
var identityKeys = []string{
	"dataset_sha256", "judgment_set_sha256", "corpus_manifest_sha256", "git_commit", "docker_image_digest",
	"parser_config_hash", "anchor_resolution_sha256", "qrels_sha256", "chunk_profile_hash", "prompt_hash",
}

// checkConfigFrozen reports, once per config.yaml, the frozen keys it
// lacks and the identity keys it leaves blank.
func (c *checker) checkConfigFrozen() {
	for _, r := range c.ds.Configs {
		if !r.Typed {
			continue
		}
		var absent, blank []string
		for _, k := range FrozenConfigKeys {
			v, ok := r.V[k]
			switch {
			case !ok:
				absent = append(absent, k)
			case identityKey(k) && (v == nil || strings.TrimSpace(fmt.Sprint(v)) == ""):
				blank = append(blank, k)
			}
		}
		if len(absent) > 0 {
			c.add(ruleRAGConfigUnfrozen.At(c.ds.Path(r.Loc), int(r.Line), "", "config.yaml lacks %d of the %d keys seed 003 §10 freezes: %s", len(absent), len(FrozenConfigKeys), strings.Join(absent, ", ")))
		}
		if len(blank) > 0 {
			c.add(ruleRAGConfigUnfrozen.At(c.ds.Path(r.Loc), int(r.Line), jsonl.Pointer(blank[0]), "config.yaml leaves %d identity key(s) blank, so they are not frozen: %s", len(blank), strings.Join(blank, ", ")).
				WithHint("Record the hash / commit / digest, or write unknown when it cannot be known (seed 003 §10)."))
		}
	}
}

// firstRepeat returns the positions (first, again) of the first id that
// appears twice in ids, or -1, -1.
func firstRepeat(ids []string) (first, again int) {
	seen := make(map[string]int, len(ids))
	for j, id := range ids {
		if i, ok := seen[id]; ok {
			return i, j
		}
		seen[id] = j
	}
	return -1, -1
}

// firstRise returns the first position whose score is higher than the one
// before it (the list is not descending there), -1 when there is none.
func firstRise(scores []float64) int {
	for j := 1; j < len(scores); j++ {
		if scores[j] > scores[j-1] {
			return j
		}
	}
	return -1
}

// uncheckedDocs are the documents of one file's anchors that could not be
// checked, in first-seen order, with the first line of each.
type uncheckedDocs struct {
	spans, hashes []string
	line          map[string]int
}

func (ix *ragIndex) noteUnchecked(l dataset.Where, doc string, hashOnly bool) {
	u := ix.unchecked[l.Path]
	if u == nil {
		u = &uncheckedDocs{line: map[string]int{}}
		ix.unchecked[l.Path] = u
	}
	list := &u.spans
	if hashOnly {
		list = &u.hashes
	}
	if !slices.Contains(*list, doc) {
		*list = append(*list, doc)
	}
	if _, ok := u.line[doc]; !ok {
		u.line[doc] = l.Line
	}
}

// reportUnchecked says once per file which documents' anchors were not
// checked, and why.
func (c *checker) reportUnchecked(ix *ragIndex) {
	for _, p := range slices.Sorted(maps.Keys(ix.unchecked)) {
		u := ix.unchecked[p]
		name := func(docs []string) string {
			var parts []string
			for i, d := range docs {
				if i == 5 {
					parts = append(parts, fmt.Sprintf("and %d more", len(docs)-5))
					break
				}
				parts = append(parts, fmt.Sprintf("%s (first at line %d)", d, u.line[d]))
			}
			return strings.Join(parts, ", ")
		}
		var what []string
		if len(u.spans) > 0 {
			what = append(what, fmt.Sprintf("documents.jsonl gives %s no text, char_count or pages with offsets, so the spans of their anchors and their evidence_sha256 are not checked", name(u.spans)))
		}
		if len(u.hashes) > 0 {
			what = append(what, fmt.Sprintf("documents.jsonl gives %s a length but no text, so evidence_sha256 cannot be recomputed", name(u.hashes)))
		}
		c.add(ruleRAGAnchorUnchecked.At(p, 0, "", "%s", strings.Join(what, "; ")))
	}
}
