// `tooldesk tools new`'s way to the authoring code (the CLI never imports sources/): the same
// newTool the API's createTool uses, so both make the same tools from the same templates.
export { loadedToolFile, newTool, type NewTool } from '../../sources/authoring/new-tool.ts';
export { AuthoringError } from '../../sources/authoring/tool-authoring.ts';
