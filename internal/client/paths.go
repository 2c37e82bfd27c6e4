package client

import (
	"errors"
	"net/url"
	"strings"
)

// Paths of the API, relative to the host. They always end with a slash:
// the spec calls them so, and a write redirected to add one would be lost.
//
//	/api/projects/{project}/{collection}/
//	/api/projects/{project}/{collection}/{id}/
//	/api/projects/{project}/{collection}/{id}/frontend/
//	/api/projects/{project}/{collection}/{id}/job/      (generation 1)
//	/api/projects/{project}/{collection}/{id}/migrate/  (generation 2)
//	/api/projects/{project}/{collection}/rearrange/
//	/api/organizations/{organization}/{plugin listing}/
//	/api/organizations/{organization}/plugins/{id}/

// collectionPath returns the collection's path. project is escaped as one
// path segment; "@current" stays as it is.
func collectionPath(project string, coll Collection) (string, error) {
	if strings.TrimSpace(project) == "" {
		return "", errors.New("project id must not be empty")
	}
	if strings.TrimSpace(string(coll)) == "" {
		return "", errors.New("collection must not be empty")
	}
	return "/api/projects/" + url.PathEscape(project) + "/" + url.PathEscape(string(coll)) + "/", nil
}

// recordPath returns a record's path, with an action segment when action
// is not empty.
func recordPath(project string, coll Collection, id int64, action string) (string, error) {
	p, err := collectionPath(project, coll)
	if err != nil {
		return "", err
	}
	p += FormatID(id) + "/"
	if action != "" {
		p += action + "/"
	}
	return p, nil
}

// organizationPath returns the path of an organization's plugin listing.
// org is escaped as one path segment; "@current" stays as it is.
func organizationPath(org string, listing PluginListing) (string, error) {
	if strings.TrimSpace(org) == "" {
		return "", errors.New("organization id must not be empty")
	}
	if strings.TrimSpace(string(listing)) == "" {
		return "", errors.New("plugin listing must not be empty")
	}
	return "/api/organizations/" + url.PathEscape(org) + "/" + url.PathEscape(string(listing)) + "/", nil
}
