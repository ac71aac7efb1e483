import type { Ref } from 'react';

interface Props {
  id: string;
  multiple: boolean;
  accept: string;
  describedBy: string | undefined;
  invalid?: boolean;
  onFiles(files: File[]): void;
  ref?: Ref<HTMLInputElement>;
}

/** A file chooser that hands over the files chosen and clears itself, so choosing the same file again (after a failure) counts. */
export function FileInput({ id, multiple, accept, describedBy, invalid, onFiles, ref }: Props) {
  return (
    <input
      ref={ref}
      id={id}
      type="file"
      multiple={multiple}
      accept={accept}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
      onChange={(e) => {
        onFiles(Array.from(e.currentTarget.files ?? []));
        e.currentTarget.value = '';
      }}
    />
  );
}
