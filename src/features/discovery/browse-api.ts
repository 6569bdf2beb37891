import { z } from 'zod';
import { GENDERS } from '../accounts/account-schemas.js';
import { browseQuerySchema as browseQuery, checkAgeRange } from './browse-schemas.js';
import { pageParams } from '../../platform/http/pagination.js';

const fields = browseQuery.shape;

/** The query string of `GET /discovery/browse` (features/discovery/browse-schemas.ts), each field described for the OpenAPI document. */
export const browseQuerySchema = z
  .strictObject({
    ...fields,
    min_age: fields.min_age.meta({ description: 'Youngest age, in whole years.' }),
    max_age: fields.max_age.meta({ description: 'Oldest age, in whole years.' }),
    age: fields.age.meta({ description: 'Exact age, in whole years.' }),
    gender: fields.gender.meta({
      description: `One or more of ${GENDERS.join(', ')}: the parameter repeated (gender=man&gender=woman), or one comma list (gender=man,woman).`,
    }),
    interests: fields.interests.meta({
      description: 'Interests: the parameter repeated (interests=chess&interests=jazz), or one comma list (interests=chess,jazz).',
    }),
    interests_mode: fields.interests_mode.meta({ description: 'any (default): holds at least one of the interests; all: holds every one.' }),
    city: fields.city.meta({ description: 'City, case-insensitive exact match.' }),
    state: fields.state.meta({ description: 'State, case-insensitive exact match.' }),
    ...pageParams,
  })
  .superRefine(checkAgeRange);
