package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// The service has changed under this API (the notes' "Service
// generations"): since mid-2025 (generation 2) a create stores no config,
// the job action and the filters field are gone and a migrate action is
// new; a removal of the whole API (generation 3) is announced, after which
// every route of the collections answers 404. The client tells these
// answers apart from the ordinary ones here, once, so that no caller
// mistakes them: an unsaved create is not a lost answer, and a collection
// that is gone is not a record that is gone.

// UnsavedError is a create the service answered with success but without
// saving a config: the record it answers with has no id. A generation 2
// service does so after turning the request into a hog function. The
// request was applied (a hog function exists) and must not be sent again,
// yet nothing the provider manages was made: MayHaveApplied is false, so
// that no retry and no search for the config follow.
type UnsavedError struct {
	Method string
	Path   string
	Status int
	// Record is the unsaved config as the service answered it.
	Record *Record
}

// Error says what was sent and that the service saved nothing.
func (e *UnsavedError) Error() string {
	return fmt.Sprintf("%s %s: the service answered %d %s with a config that has no id: it saved no config",
		e.Method, e.Path, e.Status, http.StatusText(e.Status))
}

// ServiceGoneError is a 404 of a route of a collection whose own route
// answers 404 as well, for a project the service knows: the service no
// longer offers the collection's API (generation 3). Likewise a 404 of an
// organization's plugin listing, for an organization the service knows;
// Collection then names the listing. It is not IsNotFound: a record is
// not gone because the API is.
type ServiceGoneError struct {
	Method string
	// Path is the request's path; Collection's own path is CollectionPath.
	Path string
	// Collection is the config collection, or the plugin listing (its
	// PluginListing as a Collection), whose API is gone.
	Collection     Collection
	CollectionPath string
	// Err is the 404 answer.
	Err *APIError
}

// Error names the route and says the API is gone.
func (e *ServiceGoneError) Error() string {
	also := ""
	if !strings.HasPrefix(e.Path, e.CollectionPath+"?") && e.Path != e.CollectionPath {
		also = ", and so does " + e.CollectionPath
	}
	return fmt.Sprintf("%s %s answered 404 Not Found%s: the service no longer offers the %s API",
		e.Method, e.Path, also, e.Collection)
}

// MissingActionError is a 404 of a record's action (job, migrate) although
// the record exists: the service does not have that action (a generation 2
// service has no job action; a generation 1 service has no migrate). It is
// not IsNotFound.
type MissingActionError struct {
	Action string
	Method string
	Path   string
	ID     int64
	// Existing is the record found to exist when its action answered 404:
	// ID, or for a later call of the same action another record of the
	// collection (the client does not look again).
	Existing int64
	// Err is the 404 answer.
	Err *APIError
}

// Error names the action and the record found to exist.
func (e *MissingActionError) Error() string {
	if e.Existing != e.ID {
		return fmt.Sprintf("%s %s answered 404 Not Found, as the %s action of config %d did although that config exists: the service has no %s action",
			e.Method, e.Path, e.Action, e.Existing, e.Action)
	}
	return fmt.Sprintf("%s %s answered 404 Not Found although config %d exists: the service has no %s action",
		e.Method, e.Path, e.ID, e.Action)
}

// IsUnsaved reports whether err is an *UnsavedError.
func IsUnsaved(err error) bool {
	var u *UnsavedError
	return errors.As(err, &u)
}

// IsServiceGone reports whether err is a *ServiceGoneError.
func IsServiceGone(err error) bool {
	var g *ServiceGoneError
	return errors.As(err, &g)
}

// IsMissingAction reports whether err is a *MissingActionError.
func IsMissingAction(err error) bool {
	var m *MissingActionError
	return errors.As(err, &m)
}

// DetailCreationDisabled starts the detail of a generation 2 service's
// refusal of a create it cannot turn into a hog function (400); nothing was
// made then.
const DetailCreationDisabled = "Plugin creation is no longer possible"

// IsCreationDisabled reports whether err is that refusal.
func IsCreationDisabled(err error) bool { return badRequestSaying(err, DetailCreationDisabled) }

// IsNoMigration reports whether err is the migrate action's 400 for a
// plugin the service cannot turn into a hog function.
func IsNoMigration(err error) bool { return badRequestSaying(err, "No migration available") }

func badRequestSaying(err error, detail string) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusBadRequest &&
		strings.Contains(strings.ToLower(apiErr.Detail), strings.ToLower(detail))
}

// isProjectNotFound reports whether a 404 is the service's answer for a
// project it does not know ("Project not found."), which says nothing of
// the collection.
func isProjectNotFound(apiErr *APIError) bool {
	return strings.Contains(strings.ToLower(apiErr.Detail), "project not found")
}

// notFound404 returns the 404 answer in err that may mean more than a
// missing record: nil for anything else, including the service's unknown
// project.
func notFound404(err error) *APIError {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound || isProjectNotFound(apiErr) {
		return nil
	}
	return apiErr
}
