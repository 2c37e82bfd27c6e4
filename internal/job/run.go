// Package job is the resource pipeline_KIND_job and the action
// pipeline_KIND_run_job, and Event (event.go), on which migration builds too.
package job

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// Run is the resource pipeline_KIND_job, which runs a job on create (again
// whenever triggers change), and the action pipeline_KIND_run_job.
var Run = &Event[model, jobArgs, struct{}]{
	Resource:       "job",
	Action:         "run_job",
	ResourceSchema: resourceSchema,
	ActionSchema:   actionSchema,
	Args:           func(m *model) *jobArgs { return &m.jobArgs },
	Target:         func(a *jobArgs) *Target { return &a.Target },
	Check:          checkJob,
	Call:           runJob,
	Record: func(m *model, project string, _ struct{}) {
		m.RanAt = types.StringValue(time.Now().UTC().Format(time.RFC3339Nano))
		m.ID = types.StringValue(fmt.Sprintf("%s/%d/%s", project, m.ConfigID.ValueInt64(), m.RanAt.ValueString()))
	},
	Starting: func(k kind.Kind, project string, a *jobArgs) string {
		job := a.request()
		return fmt.Sprintf("Starting job %q (operation %q) of %s %d in project %s",
			job.Type, job.Operation, k.Noun, a.ConfigID.ValueInt64(), project)
	},
	Done: func(k kind.Kind, a *jobArgs, _ struct{}) string {
		return fmt.Sprintf("The service accepted job %q of %s %d", a.JobType.ValueString(), k.Noun, a.ConfigID.ValueInt64())
	},
}
