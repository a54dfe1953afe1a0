package engine

import (
	"testing"

	"eval752/app/dataset"
	"eval752/app/model"
)

func TestDatasetName(t *testing.T) {
	meta := &dataset.Rec[model.Meta]{}
	meta.V.Name = "eval752 demo: product-safety document QA"
	for _, tc := range []struct {
		ds   *dataset.Dataset
		want string
	}{
		{&dataset.Dataset{Bundles: []*dataset.Bundle{{Meta: meta}}, Inputs: []dataset.InputInfo{{Path: "x.zip"}}}, "eval752-demo-product-safety-document-QA"},
		{&dataset.Dataset{Inputs: []dataset.InputInfo{{Path: "runs/r1/demo.eval752.zip"}}}, "demo"},
		{&dataset.Dataset{Inputs: []dataset.InputInfo{{Path: "b.zip!sections/a.jsonl"}}}, "b"},
		{&dataset.Dataset{Inputs: []dataset.InputInfo{{Path: "法规 集.jsonl"}}}, "法规-集"},
		{&dataset.Dataset{}, "eval752"},
		{&dataset.Dataset{Inputs: []dataset.InputInfo{{Path: "../..."}}}, "eval752"},
	} {
		if got := DatasetName(tc.ds); got != tc.want {
			t.Errorf("DatasetName(%v) = %q, want %q", tc.ds.Inputs, got, tc.want)
		}
	}
}
