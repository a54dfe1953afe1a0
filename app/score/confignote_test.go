package score

import (
	"strings"
	"testing"

	"eval752/app/itemscore"
)

func TestConfigNotes(t *testing.T) {
	run := func(name string, kv ...string) itemscore.RunScores {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return itemscore.RunScores{Run: name, Config: m}
	}
	a := run("a", "dataset_sha256", "sha256:AAAA", "judgment_set_sha256", "j1", "qrels_sha256", "q1", "chunk_profile_hash", "c1")
	for _, tc := range []struct {
		b    itemscore.RunScores
		want []string // keys warned about
	}{
		// same dataset (the sha256: prefix and case do not matter); other
		// judgment set; other qrels but another chunking too: fine
		{run("b", "dataset_sha256", "aaaa", "judgment_set_sha256", "j2", "qrels_sha256", "q2", "chunk_profile_hash", "c2"), []string{"judgment_set_sha256"}},
		// same chunking, other qrels: warned
		{run("c", "dataset_sha256", "AAAA", "judgment_set_sha256", "j1", "qrels_sha256", "q2", "chunk_profile_hash", "c1"), []string{"qrels_sha256"}},
		// unknown, null or absent values are not compared
		{run("d", "dataset_sha256", "unknown", "judgment_set_sha256", "null"), nil},
		{run("e", "corpus_manifest_sha256", "m2"), nil},
	} {
		got := configNotes(a, tc.b)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %q, want warnings on %v", tc.b.Run, got, tc.want)
			continue
		}
		for i, k := range tc.want {
			if !strings.HasPrefix(got[i], "WARNING: runs a and "+tc.b.Run+" declare different "+k) {
				t.Errorf("%s: %q", tc.b.Run, got[i])
			}
		}
	}
}
