// Command posthog is a test-only stand-in for PostHog's official provider
// (registry posthog/posthog, PostHog/terraform-provider-posthog v1.0.13),
// with the one resource the guide "Moving to hog functions" uses:
// posthog_hog_function. The real provider is not on the module proxy, so a
// clean clone cannot build it; the tests run this instead, and
// TestAccOfficialPostHog_* checks that the two agree (make check-official
// runs them beside the real binary).
//
// It was written by us from reading the official provider's behaviour, and
// behaves as it does wherever a configuration touches it:
//
//   - Settings host, api_key (sensitive), project_id and organization_id,
//     each from POSTHOG_HOST, POSTHOG_API_KEY, POSTHOG_PROJECT_ID and
//     POSTHOG_ORGANIZATION_ID when not configured (a configured value wins,
//     even ""); host defaults to https://us.posthog.com; no API key is an
//     error.
//   - The resource's attributes are the official ones, plain strings (JSON
//     too), optional or computed as its schema says; a configured
//     project_id change replaces the function; project_id left out is the
//     provider's.
//   - Requests go to /api/environments/<project>/hog_functions/[<id>/] as
//     JSON; a create or update sends what the plan holds, empty JSON values
//     left out, inputs being inputs_json with sensitive_inputs_json merged
//     over it; an update whose description was removed sends ""; delete is
//     PATCH {"deleted": true}, and a 404 to it is no error; 429, 500, 502,
//     503 and 504 answers and failed connections are tried again three
//     times, whatever the method.
//   - What an answer leaves in state (readback.go) is what the official
//     one leaves. JSON values are decoded and written again by
//     encoding/json, so state holds json.Marshal's bytes (keys sorted, no
//     spaces, <, > and & escaped, numbers as float64), which Terraform
//     compares with the configuration's bytes. filters_json, masking_json,
//     mappings_json (whole, server fields and all) and, for a function
//     configured with neither inputs attribute, inputs_json are the
//     service's even when not configured; configured JSON keeps only the
//     members the configuration has, without bytecode and order;
//     inputs_schema_json is read only when configured, its entries matched
//     by key; sensitive_inputs_json is never read back; template_id is
//     kept from state; name, description and icon_url are null when blank;
//     hog keeps the configured text where the service's differs only by
//     trailing white space.
//   - Import ids "<id>" (in the provider's project) and "<project_id>/<id>";
//     the import reads the function once, and its refresh once more.
//
// Where it differs: it has no other resource, no data source and no
// resource identity; organization_id is accepted and not used; its error
// texts are its own, and its waits between tries have no jitter.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
)

func main() {
	err := providerserver.Serve(context.Background(), newProvider,
		providerserver.ServeOpts{Address: "registry.terraform.io/posthog/posthog"})
	if err != nil {
		log.Fatal(err)
	}
}
