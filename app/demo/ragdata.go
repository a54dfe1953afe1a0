package demo

// The seed-003 style documents of the demo: invented product manuals, a
// recall notice, a test instruction and a safety data sheet. Every name,
// model number and figure is made up. A document's text is its pages joined
// by "\n"; anchors are found by quoting, never by typed offsets.

type ragDocSrc struct {
	ID, Title, Version, Family, Split, Lang string
	Pages                                   []string
}

var ragDocs = []ragDocSrc{
	{"doc_kettle_v1", "DK-17 电热水壶使用说明书（演示，第 1 版）", "v1", "fam_kettle", "dev", "zh-CN", []string{
		"DK-17 电热水壶使用说明书。本产品额定电压 220 V，额定功率 1500 W，容量 1.5 L。使用前请确认插座为带接地的三孔插座。",
		"清洁与保养：清洗前请拔下插头并待壶身冷却。每月除垢一次，可用食醋与清水按 1:3 混合煮沸后浸泡 30 分钟。",
	}},
	{"doc_kettle_v2", "DK-17 电热水壶使用说明书（演示，第 2 版）", "v2", "fam_kettle", "dev", "zh-CN", []string{
		"DK-17 电热水壶使用说明书。本产品额定电压 220 V，额定功率 1800 W，容量 1.7 L。使用前请确认插座为带接地的三孔插座，额定电流不小于 10 A。",
		"安全保护：本产品设有干烧保护，壶内无水通电时温控器会在约 3 秒内切断电源。水沸腾后自动断电，指示灯熄灭。如干烧保护动作，请拔下插头，待壶身冷却 10 分钟后再加水使用。",
		"清洁与保养：清洗前请拔下插头并待壶身冷却。请勿将壶身或底座浸入水中。每月除垢一次，可用柠檬酸 20 g 加水至最高水位线煮沸后浸泡 20 分钟。",
	}},
	{"doc_heater_recall", "HA-200 Space Heater Recall Notice (fictional)", "2026-02", "fam_heater", "dev", "en", []string{
		"Harbor Appliance (a fictional company) is recalling about 12,400 HA-200 oil-filled space heaters sold between March 2025 and November 2025. The tip-over switch can fail, so the heater may keep running after it falls over, posing a fire hazard.",
		"Harbor Appliance has received 7 reports of heaters that kept running after tipping over, including 2 reports of scorched carpets. No injuries have been reported. Owners should stop using the heater immediately and contact Harbor Appliance for a free replacement. Affected units have serial numbers from HA2503A0001 to HA2511A9999 printed on the rating label on the back panel.",
	}},
	{"doc_toy_testing", "玩具小零件与绳带检验作业指导书（演示）", "2026.1", "fam_toy", "dev", "zh-CN", []string{
		"1 范围：本指导书适用于供 36 个月以下儿童使用的玩具。2 小零件试验：将样品或经拉力、跌落试验后脱落的部件，在不施加外力的情况下放入小零件试验筒，任何方向能完全进入筒内即判为小零件。",
		"3 绳带试验：供 18 个月以下儿童使用的玩具，绳带在 25 N 拉力下的自由长度不得超过 220 mm。4 判定：任一样品不合格，则该批次判为不合格，不得放行。检验记录保存不少于 3 年。",
	}},
	{"doc_powerbank_spec", "PB-10 充电宝安全技术说明（演示）", "v3", "fam_powerbank", "test", "zh-CN", []string{
		"PB-10 充电宝采用 3.7 V 锂离子电芯，标称容量 10000 mAh，额定能量 37 Wh。输入 5 V 2 A，输出 5 V 2.4 A。",
		"保护功能：过充保护电压 4.25 V，过放保护电压 2.75 V，输出短路时在 100 毫秒内切断输出。电芯温度超过 60 ℃ 时停止充电。",
		"使用注意：请勿在高温车内存放；外壳鼓胀、发热异常或有异味时请立即停止使用。本产品额定能量低于 100 Wh，可随身携带乘坐民航客机，不得托运（演示规则）。",
	}},
	{"doc_carseat_manual", "Little Voyager Car Seat Manual (fictional)", "rev B", "fam_carseat", "test", "en", []string{
		"The Little Voyager LV-3 is a fictional convertible car seat for children from 9 kg to 18 kg. Install it rear-facing until the child is at least 15 months old.",
		"Never install the seat in front of an active airbag. Use either the ISOFIX connectors or the vehicle's three-point belt, not both at the same time.",
		"Replace the seat after any crash, even if no damage is visible. Do not use the seat more than 6 years after its date of manufacture, which is moulded into the shell under the seat.",
	}},
	{"doc_cleaner_sds", "BrightHome Kitchen Cleaner Safety Data Sheet (fictional)", "1.2", "fam_cleaner", "test", "en", []string{
		"Section 2 Hazards: Contains sodium hydroxide (1-3 %). Causes severe skin burns and eye damage. Pictogram: corrosion. Keep out of reach of children.",
		"Section 4 First aid: If in eyes, rinse cautiously with water for at least 15 minutes and remove contact lenses if easy to do. If swallowed, rinse the mouth and do not induce vomiting; call a poison centre. Section 7 Storage: Store in the original container below 30 °C and away from acids.",
	}},
}

// ragAnchor quotes evidence: the first occurrence of Quote in the document's
// text (after skipping Skip earlier occurrences).
type ragAnchor struct {
	Doc, Quote string
	Skip       int
	Group      string // group_id; anchors sharing it are alternatives
	Optional   bool   // required=false
}

// ragJudge is a pooled candidate with its 0–3 grade (seed 003 §7 table).
type ragJudge struct {
	ragAnchor
	Grade  int
	Reason string
}

type ragQSrc struct {
	QID, Query, Type, Difficulty, Modality, Hops, Split string
	Answer                                              string // "" = unanswerable
	Aliases                                             []string
	Tol                                                 *[2]float64 // absolute, relative
	Unit                                                string
	Gold                                                []ragAnchor
	Judged                                              []ragJudge // other pooled candidates
}

var ragQuestions = []ragQSrc{
	{QID: "q_dev_001", Query: "DK-17 电热水壶第 2 版的额定功率是多少？", Type: "direct_fact", Difficulty: "easy", Modality: "text", Hops: "single", Split: "dev",
		Answer: "1800 W", Aliases: []string{"1800W", "1.8 kW"}, Tol: &[2]float64{0, 0}, Unit: "W",
		Gold:   []ragAnchor{{Doc: "doc_kettle_v2", Quote: "额定功率 1800 W"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_kettle_v1", Quote: "额定功率 1500 W"}, 0, "旧版本数值，与问题限定的第 2 版冲突"}}},
	{QID: "q_dev_002", Query: "DK-17 电热水壶干烧保护会在多长时间内切断电源？", Type: "numeric", Difficulty: "easy", Modality: "text", Hops: "single", Split: "dev",
		Answer: "约 3 秒", Aliases: []string{"3 秒", "3 s"}, Tol: &[2]float64{0.5, 0}, Unit: "s",
		Gold: []ragAnchor{{Doc: "doc_kettle_v2", Quote: "壶内无水通电时温控器会在约 3 秒内切断电源"}}},
	{QID: "q_dev_003", Query: "干烧保护动作后，要等多久才能重新加水使用 DK-17？", Type: "procedure", Difficulty: "medium", Modality: "text", Hops: "single", Split: "dev",
		Answer: "拔下插头，待壶身冷却 10 分钟后再加水使用", Aliases: []string{"10 分钟"},
		Gold:   []ragAnchor{{Doc: "doc_kettle_v2", Quote: "如干烧保护动作，请拔下插头，待壶身冷却 10 分钟后再加水使用"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_kettle_v2", Quote: "水沸腾后自动断电，指示灯熄灭"}, 1, "同一保护功能的背景说明"}}},
	{QID: "q_dev_004", Query: "第 2 版说明书推荐用什么给 DK-17 除垢，浸泡多久？", Type: "procedure", Difficulty: "medium", Modality: "text", Hops: "single", Split: "dev",
		Answer: "柠檬酸 20 g 加水至最高水位线煮沸后浸泡 20 分钟",
		Gold:   []ragAnchor{{Doc: "doc_kettle_v2", Quote: "每月除垢一次，可用柠檬酸 20 g 加水至最高水位线煮沸后浸泡 20 分钟"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_kettle_v1", Quote: "每月除垢一次，可用食醋与清水按 1:3 混合煮沸后浸泡 30 分钟"}, 1, "第 1 版的旧方法，主题相关但与问题限定的版本不符"}}},
	{QID: "q_dev_005", Query: "DK-17 使用前对插座有什么要求？", Type: "direct_fact", Difficulty: "easy", Modality: "text", Hops: "single", Split: "dev",
		Answer: "带接地的三孔插座，额定电流不小于 10 A",
		Gold: []ragAnchor{{Doc: "doc_kettle_v2", Quote: "使用前请确认插座为带接地的三孔插座，额定电流不小于 10 A", Group: "g1"},
			{Doc: "doc_kettle_v1", Quote: "使用前请确认插座为带接地的三孔插座", Group: "g1"}}},
	{QID: "q_dev_006", Query: "Why is the HA-200 space heater being recalled?", Type: "direct_fact", Difficulty: "easy", Modality: "text", Hops: "single", Split: "dev",
		Answer: "The tip-over switch can fail, so the heater may keep running after it falls over, posing a fire hazard.",
		Gold:   []ragAnchor{{Doc: "doc_heater_recall", Quote: "The tip-over switch can fail, so the heater may keep running after it falls over, posing a fire hazard."}}},
	{QID: "q_dev_007", Query: "How many HA-200 heaters are affected by the recall?", Type: "numeric", Difficulty: "easy", Modality: "text", Hops: "single", Split: "dev",
		Answer: "about 12,400", Aliases: []string{"12400", "12,400 units"}, Tol: &[2]float64{0, 0.01}, Unit: "units",
		Gold: []ragAnchor{{Doc: "doc_heater_recall", Quote: "recalling about 12,400 HA-200 oil-filled space heaters"}}},
	{QID: "q_dev_008", Query: "Where can an owner find the serial number of an HA-200 heater, and which serial range is affected?", Type: "multi_evidence", Difficulty: "medium", Modality: "text", Hops: "multi", Split: "dev",
		Answer: "On the rating label on the back panel; HA2503A0001 to HA2511A9999.",
		Gold: []ragAnchor{{Doc: "doc_heater_recall", Quote: "serial numbers from HA2503A0001 to HA2511A9999", Group: "range"},
			{Doc: "doc_heater_recall", Quote: "printed on the rating label on the back panel", Group: "where"}}},
	{QID: "q_dev_009", Query: "What should HA-200 owners do, and have any injuries been reported?", Type: "multi_evidence", Difficulty: "medium", Modality: "text", Hops: "multi", Split: "dev",
		Answer: "Stop using the heater immediately and contact Harbor Appliance for a free replacement; no injuries have been reported.",
		Gold: []ragAnchor{{Doc: "doc_heater_recall", Quote: "Owners should stop using the heater immediately and contact Harbor Appliance for a free replacement.", Group: "action"},
			{Doc: "doc_heater_recall", Quote: "No injuries have been reported.", Group: "injuries"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_heater_recall", Quote: "including 2 reports of scorched carpets"}, 2, "supports the incident history, not the action"}}},
	{QID: "q_dev_010", Query: "玩具小零件试验中，零件满足什么条件即判为小零件？", Type: "definition", Difficulty: "easy", Modality: "text", Hops: "single", Split: "dev",
		Answer: "任何方向能完全进入小零件试验筒内即判为小零件",
		Gold:   []ragAnchor{{Doc: "doc_toy_testing", Quote: "任何方向能完全进入筒内即判为小零件"}}},
	{QID: "q_dev_011", Query: "供 18 个月以下儿童使用的玩具，绳带自由长度的上限是多少？", Type: "numeric", Difficulty: "medium", Modality: "text", Hops: "single", Split: "dev",
		Answer: "220 mm", Aliases: []string{"22 cm", "220mm"}, Tol: &[2]float64{0, 0}, Unit: "mm",
		Gold:   []ragAnchor{{Doc: "doc_toy_testing", Quote: "绳带在 25 N 拉力下的自由长度不得超过 220 mm"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_toy_testing", Quote: "本指导书适用于供 36 个月以下儿童使用的玩具"}, 1, "适用范围，背景信息"}}},
	{QID: "q_dev_012", Query: "玩具检验中一个样品不合格时，整批如何处理？检验记录保存多久？", Type: "multi_evidence", Difficulty: "medium", Modality: "text", Hops: "multi", Split: "dev",
		Answer: "该批次判为不合格，不得放行；检验记录保存不少于 3 年",
		Gold: []ragAnchor{{Doc: "doc_toy_testing", Quote: "任一样品不合格，则该批次判为不合格，不得放行", Group: "batch"},
			{Doc: "doc_toy_testing", Quote: "检验记录保存不少于 3 年", Group: "records"}}},
	{QID: "q_dev_013", Query: "HA-200 暖风机是否有起火造成人员死亡的报告？", Type: "unanswerable_false_premise", Difficulty: "hard", Modality: "text", Hops: "single", Split: "dev",
		Judged: []ragJudge{{ragAnchor{Doc: "doc_heater_recall", Quote: "No injuries have been reported."}, 1, "相关但不能回答“死亡报告”这一错误前提"}}},
	{QID: "q_dev_014", Query: "DK-17 电热水壶的保修期是几年？", Type: "unanswerable_missing", Difficulty: "medium", Modality: "text", Hops: "single", Split: "dev"},
	{QID: "q_dev_015", Query: "干烧保护在 DK-17 第 1 版中是否存在？第 2 版的保护时间是多少？", Type: "version_conflict", Difficulty: "hard", Modality: "text", Hops: "multi", Split: "dev",
		Answer: "第 1 版说明书未提及干烧保护；第 2 版约 3 秒内切断电源",
		Gold: []ragAnchor{{Doc: "doc_kettle_v2", Quote: "本产品设有干烧保护", Group: "v2"},
			{Doc: "doc_kettle_v2", Quote: "壶内无水通电时温控器会在约 3 秒内切断电源", Group: "time"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_kettle_v1", Quote: "DK-17 电热水壶使用说明书。本产品额定电压 220 V，额定功率 1500 W，容量 1.5 L。"}, 1, "第 1 版规格页，说明未提及干烧保护"}}},

	{QID: "q_test_001", Query: "PB-10 充电宝的额定能量是多少？", Type: "numeric", Difficulty: "easy", Modality: "text", Hops: "single", Split: "test",
		Answer: "37 Wh", Aliases: []string{"37Wh", "37 瓦时"}, Tol: &[2]float64{0.5, 0}, Unit: "Wh",
		Gold: []ragAnchor{{Doc: "doc_powerbank_spec", Quote: "额定能量 37 Wh"}}},
	{QID: "q_test_002", Query: "PB-10 的过充保护电压是多少？", Type: "numeric", Difficulty: "medium", Modality: "table", Hops: "single", Split: "test",
		Answer: "4.25 V", Aliases: []string{"4.25V"}, Tol: &[2]float64{0.01, 0}, Unit: "V",
		Gold:   []ragAnchor{{Doc: "doc_powerbank_spec", Quote: "过充保护电压 4.25 V"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_powerbank_spec", Quote: "过放保护电压 2.75 V"}, 0, "实体混淆：过放而非过充"}}},
	{QID: "q_test_003", Query: "PB-10 输出短路时多快切断输出？", Type: "numeric", Difficulty: "medium", Modality: "text", Hops: "single", Split: "test",
		Answer: "100 毫秒内", Aliases: []string{"100 ms", "0.1 秒"}, Tol: &[2]float64{0, 0}, Unit: "ms",
		Gold: []ragAnchor{{Doc: "doc_powerbank_spec", Quote: "输出短路时在 100 毫秒内切断输出"}}},
	{QID: "q_test_004", Query: "PB-10 能否带上民航客机？为什么？", Type: "multi_evidence", Difficulty: "medium", Modality: "text", Hops: "multi", Split: "test",
		Answer: "可以随身携带，不得托运；因为额定能量 37 Wh，低于 100 Wh",
		Gold: []ragAnchor{{Doc: "doc_powerbank_spec", Quote: "本产品额定能量低于 100 Wh，可随身携带乘坐民航客机，不得托运", Group: "rule"},
			{Doc: "doc_powerbank_spec", Quote: "额定能量 37 Wh", Group: "energy"}}},
	{QID: "q_test_005", Query: "PB-10 外壳鼓胀时应该怎么办？", Type: "procedure", Difficulty: "easy", Modality: "text", Hops: "single", Split: "test",
		Answer: "立即停止使用", Aliases: []string{"停止使用"},
		Gold:   []ragAnchor{{Doc: "doc_powerbank_spec", Quote: "外壳鼓胀、发热异常或有异味时请立即停止使用"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_powerbank_spec", Quote: "电芯温度超过 60 ℃ 时停止充电"}, 1, "相关的温度保护，不回答问题"}}},
	{QID: "q_test_006", Query: "PB-10 电芯温度超过多少度会停止充电？", Type: "numeric", Difficulty: "easy", Modality: "text", Hops: "single", Split: "test",
		Answer: "60 ℃", Aliases: []string{"60℃", "60 度"}, Tol: &[2]float64{0, 0}, Unit: "℃",
		Gold: []ragAnchor{{Doc: "doc_powerbank_spec", Quote: "电芯温度超过 60 ℃ 时停止充电"}}},
	{QID: "q_test_007", Query: "For what child weight range is the Little Voyager LV-3 seat designed?", Type: "numeric", Difficulty: "easy", Modality: "text", Hops: "single", Split: "test",
		Answer: "9 kg to 18 kg", Aliases: []string{"9-18 kg", "9–18 kg"},
		Gold: []ragAnchor{{Doc: "doc_carseat_manual", Quote: "for children from 9 kg to 18 kg"}}},
	{QID: "q_test_008", Query: "Until what age should the LV-3 be installed rear-facing?", Type: "direct_fact", Difficulty: "easy", Modality: "text", Hops: "single", Split: "test",
		Answer: "until the child is at least 15 months old", Aliases: []string{"15 months"},
		Gold: []ragAnchor{{Doc: "doc_carseat_manual", Quote: "Install it rear-facing until the child is at least 15 months old."}}},
	{QID: "q_test_009", Query: "Can the LV-3 be installed with ISOFIX and the seat belt together?", Type: "direct_fact", Difficulty: "medium", Modality: "text", Hops: "single", Split: "test",
		Answer: "No, use either the ISOFIX connectors or the three-point belt, not both at the same time.",
		Gold:   []ragAnchor{{Doc: "doc_carseat_manual", Quote: "Use either the ISOFIX connectors or the vehicle's three-point belt, not both at the same time."}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_carseat_manual", Quote: "Never install the seat in front of an active airbag."}, 1, "installation warning on the same page, not about ISOFIX"}}},
	{QID: "q_test_010", Query: "When must an LV-3 seat be replaced, and where is its date of manufacture?", Type: "multi_evidence", Difficulty: "hard", Modality: "text", Hops: "multi", Split: "test",
		Answer: "After any crash or more than 6 years after manufacture; the date is moulded into the shell under the seat.",
		Gold: []ragAnchor{{Doc: "doc_carseat_manual", Quote: "Replace the seat after any crash, even if no damage is visible.", Group: "crash"},
			{Doc: "doc_carseat_manual", Quote: "Do not use the seat more than 6 years after its date of manufacture, which is moulded into the shell under the seat.", Group: "age"}}},
	{QID: "q_test_011", Query: "What hazard pictogram does the BrightHome kitchen cleaner carry?", Type: "direct_fact", Difficulty: "easy", Modality: "text", Hops: "single", Split: "test",
		Answer: "corrosion", Aliases: []string{"corrosive"},
		Gold: []ragAnchor{{Doc: "doc_cleaner_sds", Quote: "Pictogram: corrosion."}}},
	{QID: "q_test_012", Query: "How long should eyes be rinsed after a splash of BrightHome cleaner?", Type: "numeric", Difficulty: "easy", Modality: "text", Hops: "single", Split: "test",
		Answer: "at least 15 minutes", Aliases: []string{"15 minutes", "15 min"}, Tol: &[2]float64{0, 0}, Unit: "min",
		Gold: []ragAnchor{{Doc: "doc_cleaner_sds", Quote: "rinse cautiously with water for at least 15 minutes"}}},
	{QID: "q_test_013", Query: "How should BrightHome cleaner be stored, and what is its active hazardous ingredient?", Type: "multi_evidence", Difficulty: "medium", Modality: "text", Hops: "multi", Split: "test",
		Answer: "In the original container below 30 °C and away from acids; it contains sodium hydroxide.",
		Gold: []ragAnchor{{Doc: "doc_cleaner_sds", Quote: "Store in the original container below 30 °C and away from acids.", Group: "storage"},
			{Doc: "doc_cleaner_sds", Quote: "Contains sodium hydroxide (1-3 %).", Group: "ingredient"}},
		Judged: []ragJudge{{ragAnchor{Doc: "doc_cleaner_sds", Quote: "Keep out of reach of children."}, 1, "general precaution"}}},
	{QID: "q_test_014", Query: "PB-10 充电宝支持多少瓦的无线快充？", Type: "unanswerable_missing", Difficulty: "medium", Modality: "text", Hops: "single", Split: "test",
		Judged: []ragJudge{{ragAnchor{Doc: "doc_powerbank_spec", Quote: "输入 5 V 2 A，输出 5 V 2.4 A"}, 1, "有线输入输出参数，不能回答无线快充"}}},
	{QID: "q_test_015", Query: "What is the crash-test rating of the Little Voyager LV-3 in the 2025 consumer survey?", Type: "unanswerable_missing", Difficulty: "hard", Modality: "text", Hops: "single", Split: "test"},
}
