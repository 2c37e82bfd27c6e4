// Package job is the resource pipeline_KIND_job, which runs a public job of
// a config's plugin on create (again whenever triggers change), and the
// action pipeline_KIND_run_job, which runs it on every invocation.
package job

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// defaultJobOperation is the operation the service assumes.
const defaultJobOperation = "start"

var (
	jobConfigIDPath = path.Root("config_id")
	jobTypePath     = path.Root("job_type")
	jobPayloadPath  = path.Root("payload")
)

// jobArgs is a job as configured, in the resource and the action alike.
type jobArgs struct {
	ProjectID types.String         `tfsdk:"project_id"`
	ConfigID  types.Int64          `tfsdk:"config_id"`
	JobType   types.String         `tfsdk:"job_type"`
	Payload   jsontypes.Normalized `tfsdk:"payload"`
	Operation types.String         `tfsdk:"operation"`
}

// request is the body of the job call.
func (a *jobArgs) request() client.Job {
	job := client.Job{Type: a.JobType.ValueString(), Operation: a.Operation.ValueString()}
	if job.Operation == "" {
		job.Operation = defaultJobOperation
	}
	if framework.IsSet(a.Payload) {
		job.Payload = json.RawMessage(a.Payload.ValueString())
	}
	return job
}

// runJob asks the service, once and under the write time limit, to run
// the job; errors go to diags. It reports whether the service accepted it.
func runJob(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, a *jobArgs, diags *diag.Diagnostics) bool {
	ctx, cancel := context.WithTimeout(ctx, framework.DefaultWriteTimeout)
	defer cancel()
	id := a.ConfigID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)
	err := meta.Client.RunJob(ctx, project, k.Collection, id, a.request())
	if err == nil {
		tflog.Info(ctx, "job accepted", map[string]any{"job_type": a.JobType.ValueString()})
		return true
	}
	summary := fmt.Sprintf("Could not run job %q of %s %d", a.JobType.ValueString(), k.Noun, id)
	switch {
	case client.IsMissingAction(err):
		diags.AddError(summary, fmt.Sprintf("%s.\n\nThe service no longer runs plugin jobs (%s): nothing ran. "+
			"Remove this job (resource or action) from the configuration; %s says what replaces plugin configs.",
			err, framework.Generation2Since, framework.MovingGuide))
	case client.IsNotFound(err):
		diags.AddAttributeError(jobConfigIDPath, summary, fmt.Sprintf("Project %s has no %s with id %d.\n\n%s",
			project, k.Noun, id, framework.DescribeError(err)))
	case client.StatusOf(err) == http.StatusBadRequest:
		// The service names no attribute; its messages say which one.
		diags.AddAttributeError(jobErrorPath(err), summary, framework.DescribeError(err))
	default:
		framework.AddCustomActionError(diags, summary, framework.ActionJob, err, nil)
	}
	return false
}

// jobErrorPath maps the service's job validation messages to the attribute
// they are about: those about a field to payload, the others to job_type.
func jobErrorPath(err error) path.Path {
	msg := strings.ToLower(err.Error())
	if strings.Contains(msg, "field") || strings.Contains(msg, "payload") {
		return jobPayloadPath
	}
	return jobTypePath
}
