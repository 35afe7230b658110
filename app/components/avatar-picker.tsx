import { useEffect, useRef, useState } from "react";

const NOT_SUPPORTED = "Arquivo não suportado";

/**
 * Avatar chooser: drag and drop or browse; images only. With JS it previews the file and offers 'Remover' before
 * saving; without JS it is a plain file input (the server checks the type from the bytes either way).
 */
export function AvatarPicker({ currentUrl, name }: { currentUrl: string | null; name: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const choose = (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      setError(NOT_SUPPORTED);
      clear();
      return;
    }
    setError(null);
    if (input.current) {
      const transfer = new DataTransfer();
      transfer.items.add(file);
      input.current.files = transfer.files;
    }
    setFileName(file.name);
    setPreview(URL.createObjectURL(file));
  };
  const clear = () => {
    if (input.current) input.current.value = "";
    setPreview(null);
    setFileName(null);
  };

  return (
    <div className="avatar-picker">
      <img
        className="avatar avatar-large"
        src={preview ?? currentUrl ?? "/avatar-padrao.svg"}
        alt={`Foto de ${name}`}
        width={96}
        height={96}
      />
      <div
        className={`drop-zone${dragging ? " drop-zone-active" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          choose(event.dataTransfer.files[0]);
        }}
      >
        <label htmlFor="avatar">Arraste uma imagem para cá ou clique para procurar</label>
        <input
          ref={input}
          id="avatar"
          name="avatar"
          type="file"
          accept="image/*"
          onChange={(event) => choose(event.currentTarget.files?.[0])}
        />
        {fileName ? (
          <p className="file-chosen">
            {fileName}{" "}
            <button type="button" className="link-button" onClick={clear}>
              Remover
            </button>
          </p>
        ) : null}
        {error ? (
          <p className="field-errors" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
