package configresource_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// The state shapes the generic REST providers write for a plugin config
// (../shared/peers/generic-rest-providers.md): what MoveResourceState
// receives as SourceRawState, verbatim but for ids and timestamps.

// peerShape is one shape of a peer resource's state, for the config with
// id in the collection coll of project 1.
type peerShape struct {
	name     string
	typeName string
	address  string
	version  int64
	state    func(coll client.Collection, id int64) string
	// identity is what Terraform 1.12+ sends as SourceIdentity; nil for none.
	identity func(coll client.Collection, id int64) string
	// settings are the keys of `config` the body sets (a warning names them).
	settings []string
}

const (
	restapiAddress = "registry.terraform.io/mastercard/restapi"
	restfulAddress = "registry.terraform.io/magodo/restful"
)

// record is the service's record as the peers keep it (api_response,
// output), with settings.
func serviceRecord(coll client.Collection, id int64) string {
	return fmt.Sprintf(`{"config":{"locale":"en"},"created_at":"2026-11-25T09:26:38.773354Z","deleted":false,`+
		`"delivery_rate_24h":null,"description":"","enabled":true,"error":null,`+
		`"filters":{"events":[{"id":"$pageview","properties":[],"type":"events"}]},"id":%d,"name":"GeoIP","order":1,`+
		`"plugin":11,"plugin_info":{"id":11,"name":"GeoIP","capabilities":{"methods":["processEvent"]}},"team_id":1,`+
		`"updated_at":"2026-11-25T09:26:38.773354Z","collection":%q}`, id, coll)
}

// jsonString encodes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// restapiNulls are the restapi_object v3.0.0 attributes a plain
// configuration leaves null.
const restapiNulls = `"create_method":null,"create_path":null,"debug":null,"destroy_data":null,` +
	`"destroy_method":null,"destroy_path":null,"force_new":null,"id_attribute":null,` +
	`"ignore_all_server_changes":null,"ignore_changes_to":null,"object_id":null,"query_string":null,` +
	`"read_data":null,"read_method":null,"read_path":null,"read_search":null,"update_data":null,"update_method":null,"update_path":null`

// restapiV3 is restapi_object of Mastercard/restapi v3.0.0 as the facts
// file shows it, with data and path as given and read_path when not "".
func restapiV3(path, data, readPath string) func(client.Collection, int64) string {
	return func(coll client.Collection, id int64) string {
		rec := serviceRecord(coll, id)
		nulls := restapiNulls
		if readPath != "" {
			nulls = strings.Replace(nulls, `"read_path":null`, `"read_path":`+jsonString(fmt.Sprintf(readPath, coll)), 1)
		}
		return fmt.Sprintf(`{"id":"%d","path":%s,"data":%s,"api_response":%s,"create_response":%s,`+
			`"api_data":{"config":"map[locale:en]","created_at":"2026-11-25T09:26:38.773354Z","deleted":"false",`+
			`"delivery_rate_24h":"<nil>","enabled":"true","id":"%d","plugin":"11","team_id":"1"},`+
			`"ignore_server_additions":true,%s}`,
			id, jsonString(fmt.Sprintf(path, coll)), jsonString(data), jsonString(rec), jsonString(rec), id, nulls)
	}
}

// restfulBody is a restful_resource body or output as a state stores a
// dynamic value.
func restfulDynamic(value string) string {
	return `{"value":` + value + `,"type":["object",{"enabled":"bool","name":"string","order":"number","plugin":"number"}]}`
}

// restful is restful_resource of magodo/restful at schema version
// version: body and output are JSON strings at 0, dynamic values after.
func restful(version int64, idSuffix string) func(client.Collection, int64) string {
	return func(coll client.Collection, id int64) string {
		body := `{"enabled":true,"name":"GeoIP","order":1,"plugin":11}`
		output := serviceRecord(coll, id)
		extra := `,"sensitive_output":null,"ephemeral_body":null,"output_attrs":null,"write_only_attrs":null`
		switch version {
		case 0:
			body, output = jsonString(body), jsonString(output)
			extra = `,"retry_create":null,"retry_read":null,"retry_update":null,"retry_delete":null,"output_attrs":null`
		case 1:
			body, output = restfulDynamic(body), restfulDynamic(output)
			extra = `,"retry_create":null,"retry_read":null,"retry_update":null,"retry_delete":null,"output_attrs":null`
		default:
			body, output = restfulDynamic(body), restfulDynamic(output)
		}
		return fmt.Sprintf(`{"id":"/api/projects/1/%s/%d%s","path":"/api/projects/1/%s","read_path":"$(path)/$(body.id)%s",`+
			`"body":%s,"output":%s,"header":null,"query":null,"create_method":null,"delete_method":null%s}`,
			coll, id, idSuffix, coll, idSuffix, body, output, extra)
	}
}

// restfulIdentity is the identity restful v0.25.2 writes on Terraform
// 1.12+: its import format, a JSON document in a string.
func restfulIdentity(coll client.Collection, id int64) string {
	doc := fmt.Sprintf(`{"id":"/api/projects/1/%s/%d","path":"/api/projects/1/%s","body":{"enabled":null,"name":null,"order":null,"plugin":null}}`,
		coll, id, coll)
	return `{"id":` + jsonString(doc) + `}`
}

// peerShapes are every shape the peers have written.
var peerShapes = []peerShape{
	{
		name: "restapi v3.0.0", typeName: "restapi_object", address: restapiAddress,
		state: restapiV3("/api/projects/1/%s", `{"enabled":true,"order":1,"plugin":11}`, ""),
	},
	{
		// Without ignore_server_additions a refresh replaces data with the
		// whole record, settings included.
		name: "restapi v3.0.0, data refreshed from the service", typeName: "restapi_object", address: restapiAddress,
		state: func(coll client.Collection, id int64) string {
			return restapiV3("/api/projects/1/%s", serviceRecord(coll, id), "")(coll, id)
		},
		settings: []string{"locale"},
	},
	{
		name: "restapi with settings and a secret in data", typeName: "restapi_object", address: restapiAddress,
		state:    restapiV3("/api/projects/1/%s", `{"config":{"api_key":"s3cr3t","locale":"en"},"enabled":true,"order":1,"plugin":11}`, ""),
		settings: []string{"api_key", "locale"},
	},
	{
		name: "restapi with read_path and a trailing slash", typeName: "restapi_object", address: restapiAddress,
		state: restapiV3("/api/projects/1/%s/", `{"plugin":11}`, "/api/projects/1/%s/{id}/"),
	},
	{
		name: "restapi under a base URL that ends in /api", typeName: "restapi_object", address: restapiAddress,
		state: restapiV3("/projects/1/%s", `{"plugin":11}`, ""),
	},
	{
		// terraform-plugin-sdk/v2 releases before v3: a map api_data, no
		// ignore_server_additions.
		name: "restapi 1.x (SDKv2)", typeName: "restapi_object", address: restapiAddress,
		state: func(coll client.Collection, id int64) string {
			return fmt.Sprintf(`{"id":"%d","path":"/api/projects/1/%s","data":"{ \"plugin\": 11, \"order\": 1 }",`+
				`"api_data":{"id":"%d","plugin":"11"},"api_response":%s,"create_response":null,"debug":false,`+
				`"object_id":null,"create_path":null,"read_path":null,"update_path":null,"destroy_path":null,`+
				`"force_new":null,"read_search":null,"query_string":null}`,
				id, coll, id, jsonString(serviceRecord(coll, id)))
		},
	},
	{name: "restful v0.25.2 (schema 2)", typeName: "restful_resource", address: restfulAddress, version: 2, state: restful(2, "")},
	{
		name: "restful v0.25.2 (schema 2) on Terraform 1.12+", typeName: "restful_resource", address: restfulAddress, version: 2,
		state: restful(2, ""), identity: restfulIdentity,
	},
	{name: "restful schema 1 (dynamic body, retry attributes)", typeName: "restful_resource", address: restfulAddress, version: 1, state: restful(1, "")},
	{name: "restful schema 0 (JSON string body)", typeName: "restful_resource", address: restfulAddress, version: 0, state: restful(0, "")},
	{name: "restful with a trailing slash", typeName: "restful_resource", address: restfulAddress, version: 2, state: restful(2, "/")},
}

// moveRequest is a MoveResourceState request from a source state.
type moveRequest struct {
	typeName, address string
	version           int64
	state             string
	identity          string
	private           []byte
}

// move sends req to target as Terraform does for a moved block.
func move(t *testing.T, srv *acctest.ProviderServer, target string, req moveRequest) *tfprotov6.MoveResourceStateResponse {
	t.Helper()
	in := &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: req.address, SourceTypeName: req.typeName, SourceSchemaVersion: req.version,
		SourceState: &tfprotov6.RawState{JSON: []byte(req.state)}, SourcePrivate: req.private, TargetTypeName: target,
	}
	if req.identity != "" {
		in.SourceIdentity = &tfprotov6.RawState{JSON: []byte(req.identity)}
	}
	resp, err := srv.MoveResourceState(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// offlineServer is the provider configured for a host it never calls: the
// mover makes no request.
func offlineServer(t *testing.T) *acctest.ProviderServer {
	t.Helper()
	return acctest.NewProviderServerFor(t, "http://127.0.0.1:9", localapi.KeyWrite, "1")
}

// number is a Terraform number.
func number(n int64) tftypes.Value {
	return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(n))
}

// privateKeys decodes private state bytes into its keys' JSON values.
func privateKeys(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	if len(b) == 0 {
		return out
	}
	var raw map[string][]byte
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("private state %s: %v", b, err)
	}
	for k, v := range raw {
		out[k] = v
	}
	return out
}

// errorsOf returns the error diagnostics, each as "summary: detail".
func errorsOf(diags []*tfprotov6.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}

// checkMoved checks a move's answer: project 1 and id alone in the state
// and the identity, where the config came from in private state, and a
// warning naming the settings the source's body set, if any.
func checkMoved(t *testing.T, srv *acctest.ProviderServer, target string, resp *tfprotov6.MoveResourceStateResponse,
	id int64, from string, settings []string,
) {
	t.Helper()
	if errs := errorsOf(resp.Diagnostics); len(errs) > 0 {
		t.Fatalf("move refused: %v", errs)
	}
	attrs := acctest.Attributes(t, resp.TargetState, srv.ResourceType(t, target))
	for name, v := range attrs {
		var want tftypes.Value
		switch name {
		case "id":
			want = number(id)
		case "project_id":
			want = tftypes.NewValue(tftypes.String, "1")
		default:
			if !v.IsNull() {
				t.Errorf("%s = %s, want null: the refresh reads it from the service", name, v)
			}
			continue
		}
		if !v.Equal(want) {
			t.Errorf("%s = %s, want %s", name, v, want)
		}
	}
	if resp.TargetIdentity == nil {
		t.Error("no identity")
	} else {
		schemas, err := srv.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
		if err != nil {
			t.Fatal(err)
		}
		ident := acctest.Attributes(t, resp.TargetIdentity.IdentityData, schemas.IdentitySchemas[target].ValueType())
		if !ident["id"].Equal(number(id)) || !ident["project_id"].Equal(tftypes.NewValue(tftypes.String, "1")) {
			t.Errorf("identity %v, want project 1 and id %d", ident, id)
		}
	}
	private := privateKeys(t, resp.TargetPrivate)
	var origin struct{ From, Path string }
	if err := json.Unmarshal(private["moved"], &origin); err != nil {
		t.Fatalf("private state %v: no origin of the move: %v", private, err)
	}
	if origin.From != from || !strings.HasSuffix(origin.Path, fmt.Sprintf("/%d", id)) {
		t.Errorf("origin %+v, want from %q and the config's path", origin, from)
	}
	if _, ok := private["plugin"]; ok {
		t.Errorf("private state %v has plugin facts before any read", private)
	}
	var warnings []string
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			warnings = append(warnings, d.Summary+": "+d.Detail)
		}
	}
	switch {
	case len(settings) == 0 && len(warnings) > 0:
		t.Errorf("warnings %v for a body without settings", warnings)
	case len(settings) > 0 && (len(warnings) != 1 || !strings.Contains(warnings[0], strings.Join(settings, ", "))):
		t.Errorf("warnings %v, want one naming the settings %v", warnings, settings)
	}
	for _, w := range warnings {
		if strings.Contains(w, "s3cr3t") || strings.Contains(w, `"en"`) {
			t.Errorf("a warning shows a setting's value: %s", w)
		}
	}
}

// TestMoveState_peerShapes moves every state shape the peers have written,
// per kind: the config's project and id, nothing else.
func TestMoveState_peerShapes(t *testing.T) {
	t.Parallel()
	srv := offlineServer(t)
	for _, k := range framework.Kinds() {
		for _, shape := range peerShapes {
			t.Run(k.Name+"/"+shape.name, func(t *testing.T) {
				const id = 1004
				req := moveRequest{typeName: shape.typeName, address: shape.address, version: shape.version,
					state: shape.state(k.Collection, id)}
				if shape.identity != nil {
					req.identity = shape.identity(k.Collection, id)
				}
				resp := move(t, srv, k.ConfigTypeName(), req)
				checkMoved(t, srv, k.ConfigTypeName(), resp, id, shape.typeName+" ("+shape.address+")", shape.settings)
			})
		}
	}
}

// TestMoveState_providerAddresses: a peer is recognised under any registry
// host, in any letter case, without a host, and by its type alone (older
// OpenTofu).
func TestMoveState_providerAddresses(t *testing.T) {
	t.Parallel()
	srv := offlineServer(t)
	target := framework.Transformation.ConfigTypeName()
	for _, tc := range []struct{ typeName, address string }{
		{"restapi_object", "registry.opentofu.org/mastercard/restapi"},
		{"restapi_object", "Registry.Terraform.IO/Mastercard/RestAPI"},
		{"restapi_object", "terraform.example.com/mastercard/restapi"},
		{"restapi_object", "mastercard/restapi"},
		{"restapi_object", "restapi"},
		{"restful_resource", "registry.opentofu.org/magodo/restful"},
		{"restful_resource", "magodo/restful"},
		{"restful_resource", "restful"},
	} {
		t.Run(tc.address, func(t *testing.T) {
			shape := peerShapes[0]
			if tc.typeName == "restful_resource" {
				shape = peerShapes[6]
			}
			resp := move(t, srv, target, moveRequest{typeName: tc.typeName, address: tc.address, version: shape.version,
				state: shape.state(framework.Transformation.Collection, 7)})
			checkMoved(t, srv, target, resp, 7, tc.typeName+" ("+tc.address+")", nil)
		})
	}
}

// TestMoveState_refused: what is not a config of the target's collection
// and project is refused with an error naming the source and what was
// expected; the answer holds no state.
func TestMoveState_refused(t *testing.T) {
	t.Parallel()
	srv := offlineServer(t)
	target := framework.Transformation.ConfigTypeName()
	otherColl := framework.ImportApp.Collection
	restapiAt := func(path, id string) string {
		return fmt.Sprintf(`{"id":%s,"path":%s,"data":"{}",%s}`, jsonString(id), jsonString(path), restapiNulls)
	}
	restfulAt := func(path, id string) string {
		return fmt.Sprintf(`{"id":%s,"path":%s,"read_path":"$(path)/$(body.id)","body":%s}`,
			jsonString(id), jsonString(path), restfulDynamic(`{"plugin":11}`))
	}
	own := "/api/projects/1/" + string(framework.Transformation.Collection)
	for _, tc := range []struct {
		name string
		req  moveRequest
		want []string
	}{
		{
			name: "another API path",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: restapiAt("/api/projects/1/hog_functions", "17")},
			want: []string{"restapi_object (" + restapiAddress + ")", `"hog_functions"`, "/api/projects/<project_id>/pipeline_transformation_configs"},
		},
		{
			name: "another API",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: restapiAt("/v1/users", "17")},
			want: []string{`path "/v1/users" is not a collection of plugin configs`},
		},
		{
			name: "the other collection",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: restapiAt("/api/projects/1/"+string(otherColl), "17")},
			want: []string{"an import app config (collection pipeline_import_apps_configs)", "move it to pipeline_import_app_config"},
		},
		{
			name: "the other collection, restful",
			req: moveRequest{typeName: "restful_resource", address: restfulAddress, version: 2,
				state: restfulAt("/api/projects/1/"+string(otherColl), "/api/projects/1/"+string(otherColl)+"/17")},
			want: []string{"restful_resource (" + restfulAddress + ")", "move it to pipeline_import_app_config", `read_path = "$(path)/$(body.id)"`},
		},
		{
			name: "an id that is not an integer",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: restapiAt(own, "geoip")},
			want: []string{`its id "geoip" is not a config id`},
		},
		{
			name: "an id that is not positive",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: restapiAt(own, "0")},
			want: []string{`its id "0" is not a config id`},
		},
		{
			name: "a restful id that is not an integer",
			req:  moveRequest{typeName: "restful_resource", address: restfulAddress, version: 2, state: restfulAt(own, own+"/1.5")},
			want: []string{`its id "1.5" is not a config id`},
		},
		{
			name: "a restful id that is the collection (no read_path)",
			req:  moveRequest{typeName: "restful_resource", address: restfulAddress, version: 2, state: restfulAt(own, own)},
			want: []string{"is a collection, not one config", "without read_path"},
		},
		{
			name: "a restful id outside its path",
			req: moveRequest{typeName: "restful_resource", address: restfulAddress, version: 2,
				state: restfulAt(own, "/api/projects/2/"+string(framework.Transformation.Collection)+"/17")},
			want: []string{"is not in its path"},
		},
		{
			name: "a restapi read_path that reads another record",
			req: moveRequest{typeName: "restapi_object", address: restapiAddress,
				state: strings.Replace(restapiAt(own, "17"), `"read_path":null`, `"read_path":"/api/projects/1/hog_functions/{id}"`, 1)},
			want: []string{`its read_path "/api/projects/1/hog_functions/{id}" does not read config 17`},
		},
		{
			name: "a project that is not a project id",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: restapiAt("/api/projects/team/"+string(framework.Transformation.Collection), "17")},
			want: []string{`the project "team"`},
		},
		{
			name: "an unknown restapi schema version",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, version: 1, state: restapiAt(own, "17")},
			want: []string{"schema version 1", "restapi_object states have version 0"},
		},
		{
			name: "an unknown restful schema version",
			req:  moveRequest{typeName: "restful_resource", address: restfulAddress, version: 3, state: restfulAt(own, own+"/17")},
			want: []string{"schema version 3", "version 0, 1 or 2"},
		},
		{
			name: "a state that is not an object",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: `["a"]`},
			want: []string{"not a JSON object"},
		},
		{
			name: "a state without a path",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: `{"id":"17"}`},
			want: []string{"has no path"},
		},
		{
			name: "an id that is a number, not a string",
			req:  moveRequest{typeName: "restapi_object", address: restapiAddress, state: fmt.Sprintf(`{"id":17,"path":%q}`, own)},
			want: []string{"its id is not a string"},
		},
		{
			name: "another provider's resource",
			req:  moveRequest{typeName: "null_resource", address: "registry.terraform.io/hashicorp/null", state: `{"id":"17"}`},
			want: []string{"not from null_resource (registry.terraform.io/hashicorp/null)", "restapi_object (mastercard/restapi)", "restful_resource (magodo/restful)"},
		},
		{
			name: "a fork's restapi_object",
			req:  moveRequest{typeName: "restapi_object", address: "registry.terraform.io/someone/restapi", state: restapiAt(own, "17")},
			want: []string{"not from restapi_object (registry.terraform.io/someone/restapi)"},
		},
		{
			name: "the other kind of this provider",
			req: moveRequest{typeName: framework.ImportApp.ConfigTypeName(), address: "registry.terraform.io/pipelinecfg/pipeline", version: 1,
				state: `{"id":17,"project_id":"1","plugin":3}`},
			want: []string{"A config cannot change collection", "an import app config", "Keep it as pipeline_import_app_config"},
		},
		{
			name: "a newer state of this resource",
			req:  moveRequest{typeName: target, address: "registry.opentofu.org/pipelinecfg/pipeline", version: 2, state: `{"id":17}`},
			want: []string{"schema version 2 is newer"},
		},
		{
			name: "this resource with unknown attributes",
			req:  moveRequest{typeName: target, address: "registry.opentofu.org/pipelinecfg/pipeline", version: 1, state: `{"id":17,"colour":"red"}`},
			want: []string{"not those of this resource"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := move(t, srv, target, tc.req)
			errs := errorsOf(resp.Diagnostics)
			if len(errs) != 1 {
				t.Fatalf("errors %v, want one", errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs[0], w) {
					t.Errorf("the error does not say %q:\n%s", w, errs[0])
				}
			}
			if resp.TargetState != nil {
				t.Errorf("a refused move answered a state: %s", resp.TargetState.JSON)
			}
		})
	}
}

// TestMoveState_ownType: a config resource of this type written under
// another provider address (OpenTofu's registry, a mirror) moves as it is,
// a version 0 state upgraded, with its plugin facts.
func TestMoveState_ownType(t *testing.T) {
	t.Parallel()
	srv := offlineServer(t)
	target := framework.Transformation.ConfigTypeName()
	typ := srv.ResourceType(t, target)
	const v1 = `{"id":42,"project_id":"1","plugin":1,"enabled":true,"order":2,"name":"GeoIP","description":"d",` +
		`"filters":null,"config":"{\"locale\":\"en\"}","secret_config_wo":null,"secret_config_wo_version":null,` +
		`"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-02T00:00:00Z","timeouts":null}`
	v0 := strings.TrimSuffix(v1, "}") + `,"plugin_info":"{\"name\":\"GeoIP\"}","delivery_rate_24h":null,"error":null,"deleted":false,"team_id":1}`
	facts := []byte(`{"plugin":"eyJzIjpbImFwaV9rZXkiXX0="}`) // {"s":["api_key"]}
	for _, tc := range []struct {
		name    string
		version int64
		state   string
	}{{"version 0", 0, v0}, {"version 1", 1, v1}} {
		t.Run(tc.name, func(t *testing.T) {
			resp := move(t, srv, target, moveRequest{typeName: target, address: "registry.opentofu.org/pipelinecfg/pipeline",
				version: tc.version, state: tc.state, private: facts})
			if errs := errorsOf(resp.Diagnostics); len(errs) > 0 {
				t.Fatal(errs)
			}
			want, err := (&tfprotov6.RawState{JSON: []byte(v1)}).Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			got, err := resp.TargetState.Unmarshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Errorf("moved state %s, want %s", got, want)
			}
			if p := privateKeys(t, resp.TargetPrivate); string(p["plugin"]) != `{"s":["api_key"]}` {
				t.Errorf("private state %v, want the source's plugin facts", p)
			}
		})
	}
}

// TestMoveState_thenRefresh drives what a plan does after a move, per kind,
// against a local API of its own: the refresh reads the config (every
// attribute, the plugin facts, no secret), a configuration that matches
// the service plans no change, and no request writes. A plan that skips
// the refresh, and a move whose config is not on the service, are refused.
func TestMoveState_thenRefresh(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		ctx := context.Background()
		host, local := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, localapi.KeyFull)
		sc := settingsPlugins[tc.Kind.Name]
		filters := `{"events":[{"id":"$pageview","type":"events"}]}`
		settings := fmt.Sprintf(`{%q:"en",%q:"s3cr3t"}`, sc.plain, sc.secretKey)
		rec := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{
			Plugin: client.Some(sc.plugin), Order: client.Some[int64](3), Enabled: client.Some(true),
			Name: client.Some("moved in"), Filters: client.Some(json.RawMessage(filters)),
			Settings: client.Some(json.RawMessage(settings)),
		})
		gone := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{Plugin: client.Some(sc.plugin), Order: client.Some[int64](4)})
		if _, err := api.Update(ctx, "1", tc.Kind.Collection, gone.ID, client.RecordInput{Deleted: client.Some(true)}); err != nil {
			t.Fatal(err)
		}
		srv := acctest.NewProviderServerFor(t, host, localapi.KeyWrite, "1")
		typ := srv.ResourceType(t, tc.TypeName)
		restapiState := func(id int64) moveRequest {
			return moveRequest{typeName: "restapi_object", address: restapiAddress,
				state: restapiV3("/api/projects/1/%s", `{"config":`+settings+`,"plugin":1}`, "")(tc.Kind.Collection, id)}
		}
		local.ResetCounters()

		moved := move(t, srv, tc.TypeName, restapiState(rec.ID))
		if errs := errorsOf(moved.Diagnostics); len(errs) > 0 {
			t.Fatal(errs)
		}
		config := map[string]tftypes.Value{
			"plugin":  number(sc.plugin),
			"enabled": tftypes.NewValue(tftypes.Bool, true),
			"order":   number(3),
			"name":    tftypes.NewValue(tftypes.String, "moved in"),
			"filters": tftypes.NewValue(tftypes.String, filters),
			"config":  tftypes.NewValue(tftypes.String, fmt.Sprintf(`{%q:"en"}`, sc.plain)),
		}

		// -refresh=false: the plan sees the moved state alone.
		unread := srv.Plan(t, tc.TypeName, moved.TargetState, moved.TargetPrivate, moved.TargetIdentity, config)
		if errs := errorsOf(unread.Diagnostics); len(errs) != 1 || !strings.Contains(errs[0], "has not been read yet") ||
			!strings.Contains(errs[0], "restapi_object ("+restapiAddress+")") || !strings.Contains(errs[0], "-refresh=false") {
			t.Errorf("plan of the unread state: errors %v, want one saying to plan with a refresh", errs)
		}

		// The refresh.
		read, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
			TypeName: tc.TypeName, CurrentState: moved.TargetState, Private: moved.TargetPrivate, CurrentIdentity: moved.TargetIdentity,
		})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "ReadResource", read.Diagnostics)
		state := acctest.Attributes(t, read.NewState, typ)
		for name, want := range map[string]tftypes.Value{
			"id": number(rec.ID), "project_id": tftypes.NewValue(tftypes.String, "1"), "plugin": number(sc.plugin),
			"enabled": tftypes.NewValue(tftypes.Bool, true), "order": number(3), "name": tftypes.NewValue(tftypes.String, "moved in"),
			"config":     tftypes.NewValue(tftypes.String, fmt.Sprintf(`{%q:"en"}`, sc.plain)),
			"created_at": tftypes.NewValue(tftypes.String, rec.CreatedAt), "updated_at": tftypes.NewValue(tftypes.String, rec.UpdatedAt),
		} {
			if !state[name].Equal(want) {
				t.Errorf("after the refresh, %s = %s, want %s", name, state[name], want)
			}
		}
		if state["filters"].IsNull() {
			t.Error("after the refresh, filters are null, want the service's")
		}
		private := privateKeys(t, read.Private)
		if _, ok := private["moved"]; ok {
			t.Error("the origin of the move is still in private state after the read")
		}
		if !strings.Contains(string(private["plugin"]), sc.secretKey) {
			t.Errorf("plugin facts %s, want the plugin's secret key %s", private["plugin"], sc.secretKey)
		}

		// The plan: no change, no replacement.
		plan := srv.Plan(t, tc.TypeName, read.NewState, read.Private, read.NewIdentity, config)
		acctest.FailOnDiagnostics(t, "PlanResourceChange", plan.Diagnostics)
		planned, err := plan.PlannedState.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		prior, err := read.NewState.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		if !planned.Equal(prior) || len(plan.RequiresReplace) > 0 {
			t.Errorf("the plan after the move changes the config (replace %v):\nplanned %s\nstate   %s", plan.RequiresReplace, planned, prior)
		}

		// A config that is gone, or deleted, is no config to move.
		for _, id := range []int64{gone.ID, 999999} {
			m := move(t, srv, tc.TypeName, restapiState(id))
			r, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
				TypeName: tc.TypeName, CurrentState: m.TargetState, Private: m.TargetPrivate, CurrentIdentity: m.TargetIdentity,
			})
			if err != nil {
				t.Fatal(err)
			}
			path := fmt.Sprintf("/api/projects/1/%s/%d", tc.Kind.Collection, id)
			if errs := errorsOf(r.Diagnostics); len(errs) != 1 || !strings.Contains(errs[0], path) || !strings.Contains(errs[0], "removed block") {
				t.Errorf("refresh of moved config %d: errors %v, want one naming %s", id, errs, path)
			}
		}

		c := local.Counters()
		if w := c["create"] + c["update"] + c["delete"] + c["rearrange"]; w != 0 {
			t.Errorf("the move, refreshes and plans wrote to the service: %v", c)
		}
	})
}
