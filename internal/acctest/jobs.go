package acctest

// JobCase is a public job of one of the local API's seeded plugins of a
// kind (see the local API's README).
type JobCase struct {
	Plugin  int64
	JobType string
	// Required is a payload field the job requires.
	Required string
	// Payload is a valid payload as an HCL expression, and PayloadJSON
	// the same as JSON.
	Payload, PayloadJSON string
}

// JobCases are the local API's jobs, by kind name.
var JobCases = map[string]JobCase{
	"transformation": {Plugin: 2, JobType: "Reprocess", Required: "since",
		Payload: `jsonencode({ since = "2024-01-01" })`, PayloadJSON: `{"since":"2024-01-01"}`},
	"import_app": {Plugin: 3, JobType: "Backfill", Required: "days",
		Payload: `jsonencode({ days = 7, dry_run = true })`, PayloadJSON: `{"days":7,"dry_run":true}`},
}
