package job

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

type publicJob struct {
	Payload map[string]struct {
		Required bool `json:"required"`
	} `json:"payload"`
}

// checkJob judges a job against the public jobs of the config's plugin (one
// read, readForPlan); values not known yet are left to the service.
func checkJob(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, a *jobArgs) diag.Diagnostics {
	if !framework.IsSet(a.ConfigID) || !framework.IsSet(a.JobType) {
		return nil
	}
	id := a.ConfigID.ValueInt64()
	rec, diags := readForPlan(ctx, meta, k, project, id)
	if rec == nil {
		return diags
	}
	if stores, known := meta.Client.StoresConfigs(); known && !stores {
		// A service that no longer stores configs has no job action either.
		diags.AddAttributeError(jobConfigIDPath, "The service no longer runs plugin jobs", fmt.Sprintf(
			"The service no longer stores plugin configs (%s) and has no job action, so nothing was sent. Remove "+
				"this job (resource or action) from the configuration; %s says what replaces plugin configs.",
			framework.Generation2Since, framework.MovingGuide))
		return diags
	}
	if framework.RefuseKeyAtPlan(ctx, meta, project, k.Collection, id, framework.ActionJob, jobConfigIDPath, &diags) {
		return diags
	}
	var info struct {
		PublicJobs *map[string]publicJob `json:"public_jobs"`
	}
	if json.Unmarshal(rec.PluginInfo, &info) != nil || info.PublicJobs == nil {
		return nil // plugin_info does not say: the service alone can judge the job
	}
	jobs := *info.PublicJobs
	jobType := a.JobType.ValueString()
	job, ok := jobs[jobType]
	switch {
	case len(jobs) == 0:
		diags.AddAttributeError(jobTypePath, "Plugin has no public jobs", fmt.Sprintf(
			"Plugin %d of %s %d has no public jobs, so job %q cannot run.", rec.Plugin, k.Noun, id, jobType))
		return diags
	case !ok:
		diags.AddAttributeError(jobTypePath, "Unknown job type", fmt.Sprintf(
			"Plugin %d of %s %d has no public job %q. Its jobs: %s.", rec.Plugin, k.Noun, id, jobType, quoteAll(slices.Sorted(maps.Keys(jobs))...)))
		return diags
	}

	if a.Payload.IsUnknown() {
		return nil // judged by the service at apply
	}
	payload, isObject := jsonvalue.Object(a.Payload.ValueString())
	if framework.IsSet(a.Payload) && !isObject {
		return nil // the attribute's validator reports it
	}
	fields := slices.Sorted(maps.Keys(job.Payload))
	var missing, unknown []string
	for _, f := range fields {
		if _, sent := payload[f]; job.Payload[f].Required && !sent {
			missing = append(missing, f)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(payload)) {
		if _, ok := job.Payload[f]; !ok {
			unknown = append(unknown, f)
		}
	}
	if len(missing) > 0 {
		diags.AddAttributeError(jobPayloadPath, "Missing required job field", fmt.Sprintf(
			"Job %q needs the payload field(s) %s. Its fields: %s.", jobType, quoteAll(missing...), describeFields(job, fields)))
	}
	if len(unknown) > 0 {
		diags.AddAttributeError(jobPayloadPath, "Unknown field for job", fmt.Sprintf(
			"Job %q has no payload field(s) %s. Its fields: %s.", jobType, quoteAll(unknown...), describeFields(job, fields)))
	}
	return diags
}

// describeFields lists a job's payload fields, marking the required ones.
func describeFields(job publicJob, fields []string) string {
	if len(fields) == 0 {
		return "none (leave payload out)"
	}
	out := make([]string, len(fields))
	for i, f := range fields {
		if out[i] = quoteAll(f); job.Payload[f].Required {
			out[i] += " (required)"
		}
	}
	return strings.Join(out, ", ")
}

func quoteAll(names ...string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return strings.Join(out, ", ")
}

// readForPlan reads config id through the read cache (many checks, few
// pages). A config the project lacks, or a service without the API, is an
// error; another failure a warning, the job left to the service at apply.
func readForPlan(ctx context.Context, meta *framework.ProviderData, k kind.Kind, project string, id int64) (*client.Record, diag.Diagnostics) {
	var diags diag.Diagnostics
	rec, err := meta.ReadCache().Read(ctx, project, k.Collection, id)
	switch {
	case client.IsNotFound(err):
		diags.AddAttributeError(jobConfigIDPath, fmt.Sprintf("Unknown %s %d", k.Noun, id), fmt.Sprintf(
			"Project %s has no %s with id %d, so no job can run on it.\n\n%s", project, k.Noun, id, framework.DescribeError(err)))
	case client.IsServiceGone(err):
		framework.AddAPIError(&diags, fmt.Sprintf("Could not read %s %d", k.Noun, id), err, nil)
	case err != nil:
		diags.AddAttributeWarning(jobConfigIDPath, "Could not check the config at plan time", fmt.Sprintf(
			"Reading %s %d failed, so the job type and payload are left to the service to judge at apply.\n\n%s",
			k.Noun, id, framework.DescribeError(err)))
	default:
		return rec, nil
	}
	return nil, diags
}
