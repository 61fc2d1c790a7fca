// A module tool: the default export is a factory; `api.typebox` gives the schema builders.
export default (api) => ({
  name: "shout",
  label: "Shout",
  description: "Says a text in capitals.",
  parameters: api.typebox.Type.Object({
    text: api.typebox.Type.String({ description: "What to shout" }),
  }),
  async execute(_toolCallId, params) {
    return { content: [{ type: "text", text: params.text.toUpperCase() }] };
  },
});
