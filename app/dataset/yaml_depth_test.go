package dataset

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"eval752/app/jsonl"
)

// YAML nesting is capped like JSON's (jsonl.MaxDepth = 512): 2,000 nested
// mappings give one yaml.too-deep finding at the line of the 513th level,
// the lines below the cut are skipped, and a key after the nest (indented
// as the root's keys) is read again. Before, every level kept its full
// pointer (20,000 levels: 2.7 GB).
func TestYAMLNestingCapped(t *testing.T) {
	const levels = 2000
	var b strings.Builder
	for i := 0; i < levels; i++ {
		b.WriteString(strings.Repeat(" ", i) + "k" + strconv.Itoa(i) + ":\n")
	}
	b.WriteString("chunk_size: 45\n")
	m, at, _, fs, err := ParseYAML(strings.NewReader(b.String()), "config.yaml", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Code != "yaml.too-deep" || fs[0].Line != jsonl.MaxDepth+2 {
		t.Fatalf("findings %v; want one yaml.too-deep at line %d", fs, jsonl.MaxDepth+2)
	}
	if !strings.HasPrefix(fs[0].Pointer, "/k0/k1/") || strings.Count(fs[0].Pointer, "/") != jsonl.MaxDepth+1 {
		t.Errorf("pointer has %d tokens, want the %d of the key whose mapping is cut", strings.Count(fs[0].Pointer, "/"), jsonl.MaxDepth+1)
	}
	if len(at) > jsonl.MaxDepth+2 {
		t.Errorf("%d pointers kept, want at most %d", len(at), jsonl.MaxDepth+2)
	}
	if m["chunk_size"] == nil {
		t.Errorf("the key after the nest was not read: %v", m["chunk_size"])
	}
	// 512 levels exactly are read
	b.Reset()
	for i := 0; i <= jsonl.MaxDepth; i++ {
		b.WriteString(strings.Repeat(" ", i) + "k" + strconv.Itoa(i) + ":\n")
	}
	if _, _, _, fs, _ := ParseYAML(strings.NewReader(b.String()), "config.yaml", 0); len(fs) != 0 {
		t.Errorf("%d levels: %v", jsonl.MaxDepth, fs)
	}
	// long keys: the pointer cap (64 KiB) stops the depth × length cost
	b.Reset()
	key := strings.Repeat("x", 10000)
	for i := 0; i < 20; i++ {
		b.WriteString(strings.Repeat(" ", i) + key + ":\n")
	}
	if _, _, _, fs, _ := ParseYAML(strings.NewReader(b.String()), "config.yaml", 0); len(fs) != 1 || fs[0].Code != "yaml.too-deep" || fs[0].Line != 8 {
		t.Errorf("long keys: %v", fs)
	}
}

// A JSON flow value nested past the cap is refused with the cap's reason:
// before, a 600-level "[[[…]]]" was told it is "supported only when written
// as JSON" — it is JSON, only too deep.
func TestYAMLDeepFlowSaysWhy(t *testing.T) {
	deep := strings.Repeat("[", jsonl.MaxDepth+88) + strings.Repeat("]", jsonl.MaxDepth+88)
	_, _, _, fs, err := ParseYAML(strings.NewReader("run_id: x\na: "+deep+"\n"), "config.yaml", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("nesting deeper than %d levels", jsonl.MaxDepth)
	if len(fs) != 1 || fs[0].Line != 2 || !strings.Contains(fs[0].Message, want) {
		t.Errorf("findings %v; want one at line 2 saying %q", fs, want)
	}
}
