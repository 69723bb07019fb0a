/** Protocol notes for /llms-full.txt (capabilities' `docs` field). */
export const watchedFolderDocs = `### Watched folders (instance owner, session only)

GET /api/v1/watched-folders → \`{ data: [{ id, path, workspaceId, beside, origin, state, problem, imported, pending, failures: [{ name, error, transcriptId, at }] }], editable }\`. A recording that appears in a folder is imported into its workspace once its size has held still for 2 s, and transcribed once per content (SHA-256 per workspace: a rename or a copy is not transcribed again); files added while Folio was stopped are found at the next start; links are never followed. A file that is not a recording costs one failed transcript, listed in \`failures\`.
POST /api/v1/watched-folders \`{ path, beside?: ["txt","srt"] }\` (the workspace is the request's: X-Folio-Workspace, else the personal one) → 201; \`beside\` writes each completed transcript next to its recording as new files only. DELETE /api/v1/watched-folders/:folderId stops watching; files are left as they are. Headless servers name folders with --watch <dir> (the owner's personal workspace) and answer 409 to both.
`;
