'use client';

import { memo } from 'react';
import { answerName, itemName, type QuestionModel } from '@/lib/forms';
import { FieldInput } from './field-input';
import { QuestionHistory } from './question-history';
import { useFormEnv, useRuntime } from './runtime-context';
import { formKeepsHistory } from '@/lib/api/form-base';

/** One question (at the top level or in one item); hidden while its visibility rule says so. */
export const QuestionView = memo(function QuestionView({ question, itemId }: { question: QuestionModel; itemId: string | null }) {
  const visible = useRuntime((r) => r.isVisible(question.schemaKey, itemId));
  const { apiBase } = useFormEnv();
  if (!visible) return null;
  const history = formKeepsHistory(apiBase) && !question.fields.every((f) => f.widget === 'file') ? <QuestionHistory question={question} itemId={itemId} /> : null;
  const nameOf = (fieldKey: string) =>
    itemId === null ? answerName(question.blockKey, question.schemaKey, fieldKey) : itemName(itemId, question.schemaKey, fieldKey);

  if (question.fields.length === 1) {
    const field = question.fields[0]!;
    // One field: the question is its label; the field's own help text adds to the question's.
    const help = [question.helpText, field.helpText].filter((t, i, all) => t && all.indexOf(t) === i).join(' ') || null;
    return (
      <div className="question" data-question={question.schemaKey}>
        <FieldInput field={field} name={nameOf(field.fieldKey)} itemId={itemId} label={question.label} helpText={help} />
        {history}
      </div>
    );
  }
  return (
    <fieldset className={`question multi ${question.layout}`} data-question={question.schemaKey}>
      <legend>{question.label}</legend>
      {question.helpText && <p className="field-help">{question.helpText}</p>}
      <div className={question.layout === 'address' ? 'address-grid' : 'stack'}>
        {question.fields.map((field) => (
          <FieldInput
            key={field.fieldKey}
            field={field}
            name={nameOf(field.fieldKey)}
            itemId={itemId}
            label={field.label}
            helpText={field.helpText}
          />
        ))}
      </div>
      {history}
    </fieldset>
  );
});
