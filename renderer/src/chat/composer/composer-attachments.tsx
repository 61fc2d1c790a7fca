import { Show, createSignal } from 'solid-js';
import type { AttachmentUpload } from '../../../../shared/api.ts';
import { acceptsImages } from '../../../../shared/model-facts.ts';
import { AttachmentChips } from './attachment-chips.tsx';
import { admitUploads, readAttachments, type PendingAttachment } from './read-attachment.ts';

/**
 * The files waiting beside the message box and the notes about them.
 * Contract: files come by "Attach", drop, paste or a picked MCP resource; each way goes through the
 * limits of `read-attachment.ts`, and what is refused replaces the notes (names and reasons), what is
 * admitted is appended. `sent` drops exactly the files that went with a message (files added while it
 * was being sent stay). Nothing here sends.
 */
export function createComposerAttachments() {
  const [files, setFiles] = createSignal<PendingAttachment[]>([]);
  const [problems, setProblems] = createSignal<string[]>([]);
  const [dragging, setDragging] = createSignal(false);
  const [pickingResource, setPickingResource] = createSignal(false);
  const add = async (list: File[]) => {
    if (list.length === 0) return;
    const { added, problems: refused } = await readAttachments(list, files());
    setFiles((now) => [...now, ...added]);
    setProblems(refused);
  };
  /** True when the upload was admitted. */
  const addUpload = (upload: AttachmentUpload) => {
    const { added, problems: refused } = admitUploads([upload], files());
    setFiles((now) => [...now, ...added]);
    setProblems(refused);
    return refused.length === 0;
  };
  return {
    files,
    problems,
    dragging,
    pickingResource,
    setPickingResource,
    add,
    addUpload,
    remove: (index: number) => setFiles((now) => now.filter((_, n) => n !== index)),
    sent: (attachments: PendingAttachment[]) => {
      setFiles((now) => now.filter((f) => !attachments.includes(f)));
      setProblems([]);
    },
    /** Another chat's files come back into the box (its notes do not). */
    restore: (list: PendingAttachment[]) => {
      setFiles(list);
      setProblems([]);
    },
    /** The form's drag-and-drop handlers. */
    drop: {
      onDragOver: (e: DragEvent) => {
        if (!e.dataTransfer?.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      },
      onDragLeave: () => setDragging(false),
      onDrop: (e: DragEvent) => {
        setDragging(false);
        if (!e.dataTransfer?.files.length) return;
        e.preventDefault();
        void add([...e.dataTransfer.files]);
      },
    },
    /** The textarea's paste handler: files pasted are attached, text is left to the box. */
    onPaste: (e: ClipboardEvent) => {
      const pasted = [...(e.clipboardData?.files ?? [])];
      if (pasted.length === 0) return;
      e.preventDefault();
      void add(pasted);
    },
  };
}

export type ComposerAttachments = ReturnType<typeof createComposerAttachments>;

/** The chips of the waiting files, then the refusals and the note on images for `model`. */
export function PendingAttachments(props: { attachments: ComposerAttachments; model?: string | undefined }) {
  const imageNote = () =>
    props.attachments.files().some((f) => f.kind === 'image') && props.model && !acceptsImages(props.model)
      ? `${props.model} is not known to accept images: they are sent as they are, and the provider may refuse them. Pick a vision model in "Model" if it does.`
      : null;
  return (
    <>
      <AttachmentChips
        items={props.attachments.files().map((f) => ({ name: f.upload.name, kind: f.kind, size: f.size, ...(f.kind === 'image' ? { preview: { mimeType: f.upload.mediaType, data: f.upload.data } } : {}) }))}
        onRemove={(i) => props.attachments.remove(i)}
      />
      <Show when={props.attachments.problems().length > 0 || imageNote()}>
        <div class="composer-notes small" role="status" data-testid="attach-note">
          {[...props.attachments.problems(), ...(imageNote() ? [imageNote()!] : [])].join(' ')}
        </div>
      </Show>
    </>
  );
}
