package audit

import (
	"runtime"
	"testing"
	"time"

	"eval752/app/dataset"
	"eval752/app/model"
)

// TestSplitIsolationReused: SplitIsolation's findings are the leakage
// pass's (d1 train / d1-scan test: same text, same family → leak-doc-exact
// and leak-family-split on line 2), and Audit on the same dataset and
// options takes that result instead of running the pass again; with other
// leakage options it runs its own.
func TestSplitIsolationReused(t *testing.T) {
	ds := &dataset.Dataset{Documents: []dataset.Rec[model.RAGDocument]{
		ragDoc(1, "d1", "train", "f1", geo),
		ragDoc(2, "d1-scan", "test", "f1", geo),
	}}
	fs := SplitIsolation(withFiles(ds), DefaultOptions())
	var got []string
	for _, f := range fs {
		got = append(got, f.Path+":"+itoaT(f.Line)+":"+f.Code)
	}
	want := []string{"documents.jsonl:2:audit.leak-doc-exact", "documents.jsonl:2:audit.leak-family-split"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("SplitIsolation = %v, want %v", got, want)
	}
	if isolationMemo.ds.Value() != ds {
		t.Fatal("the result is not kept for the dataset")
	}
	_, af := Audit(withFiles(ds), DefaultOptions())
	if isolationMemo.ds.Value() != nil {
		t.Error("Audit did not take the kept result")
	}
	n := 0
	for _, f := range af {
		if f.Code == "audit.leak-doc-exact" || f.Code == "audit.leak-family-split" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("Audit has %d leak findings, want the same 2", n)
	}
	// other leakage options: the kept result does not apply
	SplitIsolation(withFiles(ds), DefaultOptions())
	opt := DefaultOptions()
	opt.DocNear = 0.5
	if _, _, ok := isolationMemo.take(ds, leakKeyOf(opt.withDefaults())); ok {
		t.Error("a result kept for other options was handed over")
	}
}

// The kept result must not keep its dataset alive: `validate` and `score`
// run SplitIsolation and never audit, and at 1M items the memo held every
// loaded record through scoring. Once the caller drops the dataset, the
// collector frees it (its finalizer runs) and take finds nothing.
func TestSplitIsolationMemoDoesNotKeepDataset(t *testing.T) {
	ds := &dataset.Dataset{Documents: []dataset.Rec[model.RAGDocument]{
		ragDoc(1, "d1", "train", "f1", geo),
		ragDoc(2, "d1-scan", "test", "f1", geo),
	}}
	freed := make(chan struct{})
	runtime.SetFinalizer(ds, func(*dataset.Dataset) { close(freed) })
	SplitIsolation(withFiles(ds), DefaultOptions())
	ds = nil
	for i := 0; i < 20; i++ {
		runtime.GC()
		select {
		case <-freed:
			if isolationMemo.ds.Value() != nil {
				t.Fatal("the memo still names a freed dataset")
			}
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("the dataset stayed alive after SplitIsolation: the memo keeps it")
}
