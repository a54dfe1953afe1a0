package validate

import (
	"fmt"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// The review gate of seed 003 §1.2. A document is approved only when its
// review_state is CLOUD_APPROVED *and* the approval binds what §1.2 lists:
// a reviewer who approved this one bundle (cloud_approved_by), a security
// review that passed (保密/涉密等级已确认), and raw_sha256 +
// parser_profile_hash + ocr_profile_hash + normalization_profile_hash +
// chunk_profile_hash + cloud_policy_id + outbound_manifest_sha256. Anything
// else — another state, no state at all (状态不明确时默认拒绝), an approval
// that binds nothing — is not approved.

var (
	ruleRAGApprovalVoid = register(finding.Rule{
		Code:     "rag.approval-void",
		Severity: finding.Error,
		Description: "A CLOUD_APPROVED document carries a real approval: security_review \"passed\", a non-empty cloud_approved_by, and every value the approval binds " +
			"(raw_sha256, parser_profile_hash, ocr_profile_hash, normalization_profile_hash, chunk_profile_hash, cloud_policy_id, outbound_manifest_sha256); otherwise it is no approval.",
		Source: "seed 003 §1.2 (只有审核人批准这一个确切 bundle 后才能进入 CLOUD_APPROVED; 审批对象必须绑定 raw_sha256 + … + outbound_manifest_sha256)",
		Hint:   "Record who approved the bundle and the hashes the approval binds (a step that did not run still has a profile: hash its 'none' profile), or set review_state back to LOCAL_PARSED_PENDING_CLOUD_REVIEW until it is approved.",
		Family: "rag",
	})
	ruleRAGEvidenceUnapproved = register(finding.Rule{
		Code:        "rag.evidence-unapproved",
		Severity:    finding.Warning,
		Description: "An answerable question's required evidence lies in approved documents; evidence in a document that is not approved (another review_state, none at all, or a void approval) can be retrieved by no compliant run.",
		Source:      "seed 003 §1.2 (在此之前严禁向量化…或激活检索; 状态不明确时默认拒绝)",
		Hint:        "Approve the document (seed 003 §1.2) or move the question out of the set until it is; its retrieval figures count a miss no compliant system can avoid.",
		Family:      "rag",
	})
)

// approvalBinds lists the fields an approval must bind (seed 003 §1.2),
// with their JSON names, in the seed's order.
var approvalBinds = []struct {
	key string
	get func(*model.RAGDocument) string
}{
	{"cloud_approved_by", func(d *model.RAGDocument) string { return d.CloudApprovedBy }},
	{"raw_sha256", func(d *model.RAGDocument) string { return d.RawSHA256 }},
	{"parser_profile_hash", func(d *model.RAGDocument) string { return d.ParserProfileHash }},
	{"ocr_profile_hash", func(d *model.RAGDocument) string { return d.OCRProfileHash }},
	{"normalization_profile_hash", func(d *model.RAGDocument) string { return d.NormalizationProfileHash }},
	{"chunk_profile_hash", func(d *model.RAGDocument) string { return d.ChunkProfileHash }},
	{"cloud_policy_id", func(d *model.RAGDocument) string { return d.CloudPolicyID }},
	{"outbound_manifest_sha256", func(d *model.RAGDocument) string { return d.OutboundManifestSHA256 }},
}

// unboundFields are the approval's empty fields, in approvalBinds order.
func unboundFields(d *model.RAGDocument) []string {
	var out []string
	for _, b := range approvalBinds {
		if strings.TrimSpace(b.get(d)) == "" {
			out = append(out, b.key)
		}
	}
	return out
}

func securityPassed(d *model.RAGDocument) bool {
	return strings.EqualFold(strings.TrimSpace(d.SecurityReview), "passed")
}

// approved reports whether d is approved for cloud processing and
// retrieval (seed 003 §1.2), and if not, why.
func approved(d *model.RAGDocument) (bool, string) {
	switch {
	case d.ReviewState == "":
		return false, "has no review_state (an unknown state is denied)"
	case d.ReviewState != cloudApproved:
		return false, "is " + d.ReviewState
	case !securityPassed(d):
		return false, fmt.Sprintf("is CLOUD_APPROVED, but its security_review is %s", stateName(d.SecurityReview))
	}
	if miss := unboundFields(d); len(miss) > 0 {
		return false, "is CLOUD_APPROVED, but the approval does not bind " + strings.Join(miss, ", ")
	}
	return true, ""
}

// checkApprovals reports the void approvals of CLOUD_APPROVED documents.
func (c *checker) checkApprovals() {
	for _, r := range c.ds.Documents {
		if !r.Typed || r.V.ReviewState != cloudApproved {
			continue
		}
		d := &r.V
		if !securityPassed(d) {
			c.add(ruleRAGApprovalVoid.At(c.ds.Path(r.Loc), int(r.Line), "/security_review", "document %q is CLOUD_APPROVED, but its security_review is %s, not passed: that is no approval", d.DocID, stateName(d.SecurityReview)))
		}
		if miss := unboundFields(d); len(miss) > 0 {
			c.add(ruleRAGApprovalVoid.At(c.ds.Path(r.Loc), int(r.Line), "/"+miss[0], "document %q is CLOUD_APPROVED, but the approval does not bind %s (empty): that is no approval", d.DocID, strings.Join(miss, ", ")))
		}
	}
}

// checkEvidenceApproved warns on answerable questions whose required
// evidence lies in documents that are not approved.
func (c *checker) checkEvidenceApproved(ix *ragIndex) {
	if !ix.haveDocs {
		return
	}
	for _, r := range c.ds.RAG {
		if !r.Typed || !r.V.Answerable {
			continue
		}
		bad, required := 0, 0
		first, firstWhy, firstDoc := -1, "", ""
		var firstLoc dataset.Loc
		for i, g := range r.V.GoldEvidenceGroups {
			if g.Required != nil && !*g.Required {
				continue
			}
			required++
			d := ix.chunkDoc(&model.RAGChunk{DocID: g.DocID, DocumentVersionID: g.DocumentVersionID})
			if d == nil {
				continue // rag.doc-unknown / rag.document-version say so
			}
			if ok, why := approved(&d.V); !ok {
				if bad == 0 {
					first, firstWhy, firstDoc, firstLoc = i, why, g.DocID, d.Loc
				}
				bad++
			}
		}
		if bad == 0 {
			continue
		}
		scope := "one of its required evidence groups lies"
		if bad == required {
			scope = "all its required evidence lies"
		} else if bad > 1 {
			scope = fmt.Sprintf("%d of its %d required evidence groups lie", bad, required)
		}
		c.add(ruleRAGEvidenceUnapproved.At(c.ds.Path(r.Loc), int(r.Line), jsonl.Pointer("gold_evidence_groups", first)+"/doc_id",
			"question %q cannot be answered by a compliant run: %s in documents that are not approved (first: %q %s, %s)",
			r.V.QID, scope, firstDoc, firstWhy, c.loc(firstLoc)))
	}
}
