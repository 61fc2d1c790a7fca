// A module tool: the default export is a factory that receives the host API and returns tools.
// It runs in Tooldesk's tool host (a sandboxed Node process), never in the app. `parameters` is
// a JSON Schema; `api.typebox.Type` builds one too.
export default function factory(api) {
	return {
		name: "new_tool",
		label: "New Tool",
		description: "Say when the model should call this tool, in one or two sentences.",
		parameters: {
			type: "object",
			properties: {
				text: { type: "string", description: "The text to work on" },
				repeat: { type: "integer", description: "How many times to repeat it", default: 1 },
			},
			required: ["text"],
		},
		async execute(_toolCallId, params, onUpdate, _ctx, signal) {
			onUpdate?.({ content: [{ type: "text", text: "working…" }] });
			if (signal?.aborted) throw new Error("cancelled");
			const text = Array(params.repeat ?? 1).fill(params.text).join(" ");
			return { content: [{ type: "text", text }], details: { length: text.length } };
		},
	};
}
