import { z } from 'zod';
import { GENDERS } from '../domain/account-schemas.js';
import { browseFilterFields as fields, checkAgeRange } from '../domain/browse-filters.js';
import { pageParams } from './pagination.js';

/** The query string of `GET /discovery/browse`: the domain's filters, described for the OpenAPI document, plus paging. */
export const browseQuerySchema = z
  .strictObject({
    min_age: fields.min_age.meta({ description: 'Youngest age, in whole years.' }),
    max_age: fields.max_age.meta({ description: 'Oldest age, in whole years.' }),
    age: fields.age.meta({ description: 'Exact age, in whole years.' }),
    gender: fields.gender.meta({ description: `One or a comma list of ${GENDERS.join(', ')}.` }),
    interests: fields.interests.meta({ description: 'A comma list of interests.' }),
    interests_mode: fields.interests_mode.meta({ description: 'any (default): holds at least one of the interests; all: holds every one.' }),
    city: fields.city.meta({ description: 'City, case-insensitive exact match.' }),
    state: fields.state.meta({ description: 'State, case-insensitive exact match.' }),
    ...pageParams,
  })
  .superRefine(checkAgeRange);
