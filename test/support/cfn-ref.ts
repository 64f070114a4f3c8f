/** `Ref`/`Fn::GetAtt` target logical id of a CloudFormation reference, if it is one. */
export function refTarget(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.Ref === 'string') return record.Ref;
  const getAtt = record['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  return undefined;
}
