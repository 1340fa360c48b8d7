// Drag-and-drop of a file anywhere on the page: an overlay shows while a file is dragged over, and
// the first dropped file is handed to `onFile`.

export function installDropTarget(target, overlay, onFile) {
  let depth = 0; // dragenter/dragleave fire for every child crossed
  const hasFiles = (ev) => Array.from(ev.dataTransfer?.types ?? []).includes('Files');
  const hide = () => {
    depth = 0;
    overlay.hidden = true;
  };
  target.addEventListener('dragenter', (ev) => {
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    depth++;
    overlay.hidden = false;
  });
  target.addEventListener('dragover', (ev) => {
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    ev.dataTransfer.dropEffect = 'copy';
  });
  target.addEventListener('dragleave', () => {
    if (--depth <= 0) hide();
  });
  target.addEventListener('drop', (ev) => {
    ev.preventDefault();
    hide();
    const file = ev.dataTransfer?.files?.[0];
    if (file) onFile(file);
  });
}
