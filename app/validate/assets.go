package validate

import (
	"path"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/jsonl"
)

// Gate 1, assets: every file an item names exists inside its bundle, under
// assets/, and every asset is used (seed 004 多模态题目).

var (
	ruleAssetPath = register(finding.Rule{
		Code:        "asset.bad-path",
		Severity:    finding.Error,
		Description: "An asset reference is a clean relative path under assets/ (no absolute path, no \"..\", no backslash, no URL).",
		Source:      "seed 004 多模态题目 (使用 assets/ 下的相对路径引用)",
		Hint:        "Reference the file as \"assets/<name>\", relative to the bundle root.",
		Family:      "asset",
	})
	ruleAssetMissing = register(finding.Rule{
		Code:        "asset.missing",
		Severity:    finding.Error,
		Description: "An asset referenced by an item exists in the bundle.",
		Source:      "seed 004 多模态题目 (图片文件放在 assets/ 目录下)",
		Hint:        "Add the file to the bundle's assets/ folder or fix the reference (names are case-sensitive).",
		Family:      "asset",
	})
	ruleAssetUnchecked = register(finding.Rule{
		Code:        "asset.unchecked",
		Severity:    finding.Info,
		Description: "Asset references of items outside a bundle cannot be resolved; reported once per file.",
		Source:      "seed 004 .eval752.zip 包结构",
		Hint:        "Validate the packed .eval752.zip to check that every referenced asset is present.",
		Family:      "asset",
	})
	ruleAssetUnreferenced = register(finding.Rule{
		Code:        "asset.unreferenced",
		Severity:    finding.Warning,
		Description: "Every file under a bundle's assets/ is referenced by at least one item.",
		Source:      "SPEC §3 gate 1 (no unreferenced entries); seed 004 (assets/ 引用的图片和文件)",
		Hint:        "Remove the unused file or reference it; an unreferenced asset still changes the version hash.",
		Family:      "asset",
	})
)

// assetPathProblem explains why ref is not a clean relative path under
// assets/, or returns "".
func assetPathProblem(ref string) string {
	switch {
	case strings.TrimSpace(ref) == "":
		return "is empty"
	case strings.Contains(ref, "://") || strings.HasPrefix(ref, "data:"):
		return "is a URL; assets must be files inside the bundle"
	case strings.Contains(ref, `\`):
		return "contains a backslash; use forward slashes"
	case strings.HasPrefix(ref, "/") || (len(ref) > 1 && ref[1] == ':'):
		return "is an absolute path"
	}
	for _, seg := range strings.Split(ref, "/") {
		if seg == ".." {
			return "climbs out with \"..\" (path traversal)"
		}
	}
	if path.Clean(ref) != ref {
		return "is not a clean path (it should read " + quote(path.Clean(ref)) + ")"
	}
	if !strings.HasPrefix(ref, "assets/") {
		return "is not under assets/"
	}
	return ""
}

func (c *checker) checkAssets() {
	bundles := map[string]*dataset.Bundle{}
	for _, b := range c.ds.Bundles {
		bundles[b.Path] = b
	}
	present := map[*dataset.Bundle]map[string]bool{}
	for _, b := range c.ds.Bundles {
		m := map[string]bool{}
		for _, a := range b.Assets {
			m[a.Path] = true
		}
		present[b] = m
	}
	used := map[*dataset.Bundle]map[string]bool{}
	once := onceSet{}
	for _, r := range c.ds.Items {
		if !r.Typed {
			continue
		}
		bpath, _ := splitPath(c.ds.Path(r.Loc))
		b := bundles[bpath]
		lists := []struct {
			field string
			refs  []string
		}{{"images", r.V.Inputs.Images}, {"audio", r.V.Inputs.AudioPaths()}, {"video", r.V.Inputs.VideoPaths()}}
		for _, l := range lists {
			for i, ref := range l.refs {
				p := jsonl.Pointer("inputs", l.field, i)
				if why := assetPathProblem(ref); why != "" {
					c.add(ruleAssetPath.At(c.ds.Path(r.Loc), int(r.Line), p, "asset reference %q %s", ref, why))
					continue
				}
				if b == nil {
					if once.first(ruleAssetUnchecked.Code, c.ds.Path(r.Loc)) {
						c.add(ruleAssetUnchecked.At(c.ds.Path(r.Loc), 0, "",
							"items in this file reference assets (first: %q at line %d) but the file is not inside a bundle, so their presence is not checked", ref, r.Line))
					}
					continue
				}
				if used[b] == nil {
					used[b] = map[string]bool{}
				}
				used[b][ref] = true
				if !present[b][ref] {
					c.add(ruleAssetMissing.At(c.ds.Path(r.Loc), int(r.Line), p, "asset %q is not in %s", ref, b.Path))
				}
			}
		}
	}
	for _, b := range c.ds.Bundles {
		for _, a := range b.Assets {
			if strings.HasSuffix(a.Path, "/") || used[b][a.Path] {
				continue
			}
			c.add(ruleAssetUnreferenced.At(a.Full, 0, "", "asset %s is not referenced by any item of the bundle", a.Path))
		}
	}
}
