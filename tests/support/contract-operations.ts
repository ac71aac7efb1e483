/** The operation URLs of a contract (DESIGN.md §5): all below the URL of the application it belongs to. */
export const contractOperations = (applicationUrl: string) => ({
  read_answers_url: `${applicationUrl}answers/`,
  update_answers_url: `${applicationUrl}answers/`,
  repeatable_items_url: `${applicationUrl}repeatable-items/`,
  file_uploads_url: `${applicationUrl}file-uploads/`,
  files_url: `${applicationUrl}files/`,
  submit_url: `${applicationUrl}submit/`,
});
