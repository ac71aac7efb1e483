/** The operation URLs of a contract (DESIGN.md §5): all below the URL of the application it belongs to. */
export function contractOperations(applicationUrl: string) {
  const below = (path: string) => `${applicationUrl}${path}/`;
  return {
    read_answers_url: below('answers'),
    update_answers_url: below('answers'),
    repeatable_items_url: below('repeatable-items'),
    file_uploads_url: below('file-uploads'),
    files_url: below('files'),
    submit_url: below('submit'),
  };
}
